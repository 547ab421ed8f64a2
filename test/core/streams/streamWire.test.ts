import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ApprovalRequiredError,
  InvalidParamsError,
  Oz,
  OzAbortError,
  OzStreamIdleTimeoutError,
  OzStreamInterruptedError,
  OzUsageError,
  type ExecuteStreamEvent,
} from '../../../src/index.js';
import { KEY } from '../support/clients.js';
import { ScriptedServer } from '../support/scriptedServer.js';
import { HoldingServer, type HeldExchange } from '../support/holdingServer.js';
import { chunkEvent, collect, DONE, envelope, errorEvent, EXECUTION_ID, REQUEST_ID, rejectionOf, result, SSE_HEADERS, step, token } from '../support/sse.js';

let scripted: ScriptedServer;
let holding: HoldingServer;
beforeAll(async () => {
  [scripted, holding] = await Promise.all([ScriptedServer.start(), HoldingServer.start()]);
});
afterAll(() => Promise.all([scripted.close(), holding.close()]));
beforeEach(() => scripted.reset());

const clientOf = (url: string, options: ConstructorParameters<typeof Oz>[0] = {}) => new Oz({ baseURL: url, apiKey: KEY, logLevel: 'off', ...options });
const agentStream = (client: Oz, options: Parameters<Oz['agents']['execute']>[1] = {}) =>
  client.agents.execute({ agent: 'writer', user_request: 'hi', stream: true }, options);

/** Whether the exchange's connection closes within a generous bound (a closed one resolves at once). */
const closes = (exchange: HeldExchange) =>
  Promise.race([exchange.closed.then(() => 'closed'), new Promise((resolve) => setTimeout(() => resolve('still open'), 2000))]);

/** Answers every request of the holding server with stream headers and these events, then holds it open. */
function holdWith(text: string): void {
  holding.onRequest = ({ response }) => {
    response.writeHead(200, SSE_HEADERS);
    response.write(text);
  };
}

describe('streams over a real connection (scripted server)', () => {
  it('reads events split across TCP writes at awkward places', async () => {
    const wire = `\uFEFF${step('a', 'started')}${token('Grüße, ')}: ping\n\n${token('🙂')}${step('a', 'succeeded')}${result('Grüße, 🙂')}`;
    const cuts = [1, 3, 9, 17, 18, 40, 41, 42, 77, 100, 101, 150, 151, 200];
    const parts = cuts.map((end, i) => ({ data: wire.slice(i === 0 ? 0 : cuts[i - 1], end), delayMs: 2 })).concat({ data: wire.slice(200), delayMs: 2 });
    scripted.answer({ headers: SSE_HEADERS, parts });
    const stream = await agentStream(clientOf(scripted.url));
    expect(await collect(stream)).toEqual([
      { event: 'step', data: { task_id: 'a', status: 'started' } },
      { event: 'token', data: { delta: 'Grüße, ' } },
      { event: 'token', data: { delta: '🙂' } },
      { event: 'step', data: { task_id: 'a', status: 'succeeded' } },
      { event: 'result', data: envelope('Grüße, 🙂') },
    ]);
    expect(stream.executionId).toBe(EXECUTION_ID);
    expect(stream.requestId).toBe(REQUEST_ID);
  });

  it('events keep a stream alive past its idleTimeout; pings keep the connection, not the stream; silence does not', async () => {
    const tokens = Array.from({ length: 8 }, () => ({ delayMs: 15, data: token('a') }));
    scripted.answer({ headers: SSE_HEADERS, parts: [{ data: token('a') }, ...tokens, { data: result('a'.repeat(9)) }] });
    const alive = await agentStream(clientOf(scripted.url, { idleTimeout: 80 }));
    expect(await alive.finalResult()).toEqual(envelope('a'.repeat(9)));

    const pings = Array.from({ length: 40 }, () => ({ delayMs: 15, data: ': ping\n\n' }));
    scripted.answer({ headers: SSE_HEADERS, parts: [{ data: token('so far') }, ...pings, { data: result('so far') }] });
    const pinged = await agentStream(clientOf(scripted.url, { idleTimeout: 80 }));
    const pingedError = await rejectionOf(collect(pinged));
    expect(pingedError).toBeInstanceOf(OzStreamIdleTimeoutError);
    expect(pingedError).toMatchObject({ idleTimeout: 80, receivedText: 'so far' });
    expect((pingedError as Error).message).toMatch(/received no event for 80 ms/);

    scripted.answer({ headers: SSE_HEADERS, parts: [{ data: token('so far') }, { delayMs: 1000, data: result('so far') }] });
    const stalled = await agentStream(clientOf(scripted.url, { idleTimeout: 80 }));
    const error = await rejectionOf(collect(stalled));
    expect(error).toBeInstanceOf(OzStreamIdleTimeoutError);
    expect(error).toMatchObject({ idleTimeout: 80, executionId: EXECUTION_ID, requestId: REQUEST_ID, receivedText: 'so far' });
  });

  it('a per-call idleTimeout overrides the client one, and a bad one fails before sending', async () => {
    scripted.answer({ headers: SSE_HEADERS, parts: [{ data: token('a') }, { delayMs: 1000, data: result('a') }] });
    const stream = await agentStream(clientOf(scripted.url, { idleTimeout: 60_000 }), { idleTimeout: 40 });
    expect(await rejectionOf(stream.finalText())).toBeInstanceOf(OzStreamIdleTimeoutError);
    await expect(agentStream(clientOf(scripted.url), { idleTimeout: 0 })).rejects.toBeInstanceOf(OzUsageError);
    expect(scripted.requests).toHaveLength(1);
  });

  it('a cut stream throws OzStreamInterruptedError with the execution id and text so far, and is not retried', async () => {
    scripted.answer({
      headers: SSE_HEADERS,
      parts: [{ data: token('Hel') }, { delayMs: 5, data: token('lo') }, { delayMs: 5, data: 'event: tok' }],
      cutAfterParts: true,
    });
    const stream = await agentStream(clientOf(scripted.url));
    const deltas: string[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const text of stream.textDeltas()) deltas.push(text);
      })(),
    );
    expect(error).toBeInstanceOf(OzStreamInterruptedError);
    expect(error).toMatchObject({ executionId: EXECUTION_ID, requestId: REQUEST_ID, receivedText: 'Hello' });
    expect(deltas).toEqual(['Hel', 'lo']);
    expect(scripted.requests).toHaveLength(1);
  });

  it('an error event throws the typed error of its code, with the stream ids', async () => {
    scripted.answer({ headers: SSE_HEADERS, body: token('x') + errorEvent({ code: 'approval_required', message: 'needs approval' }) });
    const stream = await agentStream(clientOf(scripted.url));
    const error = await rejectionOf(stream.finalResult());
    expect(error).toBeInstanceOf(ApprovalRequiredError);
    expect(error).toMatchObject({ status: 409, code: 'approval_required', executionId: EXECUTION_ID, requestId: REQUEST_ID });
  });

  it('a chat stream through the client: text deltas until [DONE]', async () => {
    scripted.answer({ headers: { 'content-type': 'text/event-stream' }, parts: [{ data: chunkEvent('Hi') }, { delayMs: 2, data: chunkEvent(' you') + DONE }] });
    const stream = await clientOf(scripted.url).chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'hi' }], stream: true });
    expect(await collect(stream.textDeltas())).toEqual(['Hi', ' you']);
    expect(await stream.finalText()).toBe('Hi you');
  });

  it('retainStreamText: false keeps no text', async () => {
    scripted.answer({ headers: SSE_HEADERS, body: token('a') + result('a') });
    const stream = await agentStream(clientOf(scripted.url), { retainStreamText: false });
    expect(await stream.finalResult()).toEqual(envelope('a'));
    expect(stream.receivedText).toBeUndefined();
  });
});

describe('closing a stream (holding server: the test sees the connection close)', () => {
  it('breaking out of the loop closes the connection at once and removes the signal listener', async () => {
    holdWith(token('a') + token('b'));
    const controller = new AbortController();
    const stream = await agentStream(clientOf(holding.url), { signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    for await (const event of stream) if (event.event === 'token') break;
    const exchange = holding.exchanges.at(-1)!;
    expect(await closes(exchange)).toBe('closed');
    expect(exchange.ended()).toBe(false);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('aborting the signal mid-stream throws OzAbortError, closes the connection and removes the listener', async () => {
    holdWith(token('a'));
    const controller = new AbortController();
    const stream = await agentStream(clientOf(holding.url), { signal: controller.signal });
    const error = await rejectionOf(
      (async () => {
        for await (const _ of stream) controller.abort(new Error('user left'));
      })(),
    );
    expect(error).toBeInstanceOf(OzAbortError);
    expect((error as Error).cause).toEqual(new Error('user left'));
    expect(await closes(holding.exchanges.at(-1)!)).toBe('closed');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('the idle timeout closes the connection of a stalled stream', async () => {
    holdWith(token('a'));
    const stream = await agentStream(clientOf(holding.url, { idleTimeout: 30 }));
    expect(await rejectionOf(collect(stream))).toBeInstanceOf(OzStreamIdleTimeoutError);
    expect(await closes(holding.exchanges.at(-1)!)).toBe('closed');
  });

  it('close() before reading, and the result event, close the connection', async () => {
    holdWith(token('a'));
    const unread = await agentStream(clientOf(holding.url));
    await unread.close();
    expect(await closes(holding.exchanges.at(-1)!)).toBe('closed');

    holdWith(token('a') + result('a'));
    const finished = await agentStream(clientOf(holding.url));
    expect(await finished.finalResult()).toEqual(envelope('a'));
    expect(await closes(holding.exchanges.at(-1)!)).toBe('closed');
  });

  it('over many calls sharing one signal (break, abort, close, read to the end, error, idle), no listener is left', async () => {
    const shared = new AbortController();
    const client = clientOf(holding.url, { idleTimeout: 25 });
    const ways: ((stream: AsyncIterable<ExecuteStreamEvent> & { close(): Promise<void>; finalResult(): Promise<unknown> }) => Promise<unknown>)[] = [
      async (stream) => {
        for await (const _ of stream) break;
      },
      (stream) => stream.close(),
      (stream) => stream.finalResult(),
      (stream) => collect(stream).catch((error: unknown) => error),
    ];
    const scripts = [token('a'), token('a'), token('a') + result('a'), token('a') + errorEvent({ code: 'invalid_params', message: 'x' })];
    for (let round = 0; round < 10; round++) {
      for (const [index, way] of ways.entries()) {
        holdWith(scripts[index]!);
        const stream = await agentStream(client, { signal: shared.signal });
        const outcome = await way(stream);
        if (index === 3) expect(outcome).toBeInstanceOf(InvalidParamsError);
      }
      // A stalled stream ended by the idle timeout.
      holdWith(token('a'));
      await rejectionOf(collect(await agentStream(client, { signal: shared.signal })));
      // A stream aborted by its own signal, while the shared one stays live.
      holdWith(token('a'));
      const own = new AbortController();
      const combined = AbortSignal.any([shared.signal, own.signal]);
      const aborted = await agentStream(client, { signal: combined });
      own.abort();
      expect(await rejectionOf(collect(aborted))).toBeInstanceOf(OzAbortError);
      expect(getEventListeners(combined, 'abort')).toHaveLength(0);
    }
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
    const states = await Promise.all(holding.exchanges.slice(-60).map(closes));
    expect(new Set(states)).toEqual(new Set(['closed']));
  });
});
