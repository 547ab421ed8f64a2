import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_EVENT_BYTES,
  Oz,
  OzStreamEventTooLargeError,
  OzStreamInterruptedError,
  OzStreamTimeoutError,
  OzUsageError,
  Stream,
  type ExecuteStreamEvent,
} from '../../../src/index.js';
import { KEY } from '../support/clients.js';
import { ScriptedServer } from '../support/scriptedServer.js';
import { collect, envelope, EXECUTION_ID, rejectionOf, result, SSE_HEADERS, token } from '../support/sse.js';

let scripted: ScriptedServer;
beforeAll(async () => {
  scripted = await ScriptedServer.start();
});
afterAll(() => scripted.close());
beforeEach(() => scripted.reset());

const clientOf = (options: ConstructorParameters<typeof Oz>[0] = {}) =>
  new Oz({ baseURL: scripted.url, apiKey: KEY, logLevel: 'off', maxRetries: 0, ...options });
const agentStream = (client: Oz, options: Parameters<Oz['agents']['execute']>[1] = {}) =>
  client.agents.execute({ agent: 'writer', user_request: 'hi', stream: true }, options);

/** A body that sends `data: xxxx...` without a line break, 1 MiB per pull, forever; counts what was pulled. */
function endlessLine(): { response: Response; pulled: () => number; cancelled: Promise<void> } {
  const chunk = new TextEncoder().encode('x'.repeat(1024 * 1024));
  let pulled = 0;
  let onCancel!: () => void;
  const cancelled = new Promise<void>((resolve) => (onCancel = resolve));
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(new TextEncoder().encode(token('before') + 'data: '));
      },
      pull(controller) {
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel: () => onCancel(),
    },
    { highWaterMark: 0 },
  );
  return { response: new Response(body, { headers: { ...SSE_HEADERS } }), pulled: () => pulled, cancelled };
}

describe('a bound on one event of a stream (maxEventBytes)', () => {
  it('a line that never ends stops at the default 16 MiB: OzStreamEventTooLargeError, the body cancelled, memory bounded', async () => {
    expect(DEFAULT_MAX_EVENT_BYTES).toBe(16 * 1024 * 1024);
    const { response, pulled, cancelled } = endlessLine();
    const stream = new Stream<ExecuteStreamEvent>(response, { mode: 'events' });
    const seen: ExecuteStreamEvent[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const event of stream) seen.push(event);
      })(),
    );
    expect(error).toBeInstanceOf(OzStreamEventTooLargeError);
    expect(error).toBeInstanceOf(OzStreamInterruptedError);
    expect(error).toMatchObject({ maxEventBytes: DEFAULT_MAX_EVENT_BYTES, executionId: EXECUTION_ID, receivedText: 'before' });
    expect((error as Error).message).toMatch(/passed 16777216 bytes before it was complete/);
    // The event before the long line was handed out; no more than the bound (plus one chunk) was read.
    expect(seen).toEqual([{ event: 'token', data: { delta: 'before' } }]);
    expect(pulled()).toBeLessThanOrEqual(DEFAULT_MAX_EVENT_BYTES + 1024 * 1024);
    await cancelled;
  });

  it('over a real connection, the client option: an event of many data lines that never closes passes the bound', async () => {
    const line = `data: ${'y'.repeat(1000)}\n`;
    scripted.answer({ headers: SSE_HEADERS, parts: [{ data: token('a') }, ...Array.from({ length: 50 }, () => ({ delayMs: 1, data: line.repeat(10) }))] });
    const error = await rejectionOf(collect(await agentStream(clientOf({ maxEventBytes: 64 * 1024 }))));
    expect(error).toBeInstanceOf(OzStreamEventTooLargeError);
    expect(error).toMatchObject({ maxEventBytes: 64 * 1024, receivedText: 'a' });
  });

  it('many events under the bound in one large chunk pass; so does an event exactly at the bound', async () => {
    const events = Array.from({ length: 200 }, (_, i) => token(`t${i} `)).join('');
    const big = token('z'.repeat(4000));
    const bound = new TextEncoder().encode(big).byteLength;
    scripted.answer({ headers: SSE_HEADERS, parts: [{ data: events + big + result('done') }] });
    const stream = await agentStream(clientOf(), { maxEventBytes: bound });
    expect(await stream.finalResult()).toEqual(envelope('done'));
  });

  it('a per-call maxEventBytes overrides the client one; a bad one fails before sending', async () => {
    scripted.answer({ headers: SSE_HEADERS, parts: [{ data: token('x'.repeat(5000)) }, { data: result('x') }] });
    const error = await rejectionOf(collect(await agentStream(clientOf({ maxEventBytes: 1_000_000 }), { maxEventBytes: 1000 })));
    expect(error).toBeInstanceOf(OzStreamEventTooLargeError);
    for (const maxEventBytes of [0, -1, 1.5, Number.NaN]) {
      const usage = await rejectionOf(agentStream(clientOf(), { maxEventBytes }));
      expect(usage).toBeInstanceOf(OzUsageError);
      expect((usage as Error).message).toMatch(/maxEventBytes must be a whole number of bytes >= 1/);
    }
    expect(() => new Stream(new Response(''), { mode: 'events', maxEventBytes: 0 })).toThrow(OzUsageError);
    expect(scripted.requests).toHaveLength(1);
  });
});

describe('an overall deadline for a stream (streamTimeout)', () => {
  const lively = () => ({
    headers: SSE_HEADERS,
    parts: [{ data: token('so far') }, ...Array.from({ length: 200 }, () => ({ delayMs: 10, data: token('.') }))],
  });

  it('a lively stream that does not end in time: OzStreamTimeoutError with the text so far', async () => {
    scripted.answer(lively());
    const stream = await agentStream(clientOf({ streamTimeout: 150, idleTimeout: 60_000 }));
    const error = await rejectionOf(collect(stream));
    expect(error).toBeInstanceOf(OzStreamTimeoutError);
    expect(error).toBeInstanceOf(OzStreamInterruptedError);
    expect(error).toMatchObject({ streamTimeout: 150, executionId: EXECUTION_ID });
    expect((error as OzStreamTimeoutError).receivedText).toMatch(/^so far\.*$/);
    expect((error as Error).message).toMatch(/client\.executions\.wait\('exe_stream1'\)/);
  });

  it('per call, over the client one; a stream that ends in time is untouched; a bad value fails before sending', async () => {
    scripted.answer(lively());
    const error = await rejectionOf(collect(await agentStream(clientOf({ streamTimeout: 60_000 }), { streamTimeout: 100 })));
    expect(error).toBeInstanceOf(OzStreamTimeoutError);

    scripted.answer({ headers: SSE_HEADERS, parts: [{ data: token('a') }, { delayMs: 5, data: result('a') }] });
    expect(await (await agentStream(clientOf({ streamTimeout: 60_000 }))).finalResult()).toEqual(envelope('a'));

    for (const streamTimeout of [0, -5, Number.NaN]) {
      const usage = await rejectionOf(agentStream(clientOf(), { streamTimeout }));
      expect(usage).toBeInstanceOf(OzUsageError);
      expect((usage as Error).message).toMatch(/streamTimeout must be a number of milliseconds > 0/);
    }
    expect(scripted.requests).toHaveLength(2);
  });
});
