import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { OzAbortError, OzConnectionError, type ExecuteStreamEvent } from '../../../src/index.js';
import { envelope, fastClient, rejectionOf } from '../support/clients.js';
import { ScriptedServer } from '../support/scriptedServer.js';

const server = ScriptedServer.forSuite();

const sse = { 'content-type': 'text/event-stream', 'x-execution-id': 'exe_s' };
const token = (delta: string) => `event: token\ndata: ${JSON.stringify({ delta })}\n\n`;
const result = `event: result\ndata: ${JSON.stringify(envelope('ab', 'exe_s'))}\n\n`;

async function collect(stream: AsyncIterable<ExecuteStreamEvent>): Promise<ExecuteStreamEvent[]> {
  const events: ExecuteStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('stream calls through the transport', () => {
  it('asks for SSE without ?format=, sends x-trace-id, and retries before the first byte with the same one', async () => {
    server.answer({ status: 503, headers: { 'x-error-code': 'not_enabled', 'retry-after': '0' } }, { headers: sse, body: token('a') + token('b') + result });
    const stream = await fastClient(server).agents.execute({ agent: 'writer', user_request: 'hi', stream: true });
    expect(await collect(stream)).toEqual([
      { event: 'token', data: { delta: 'a' } },
      { event: 'token', data: { delta: 'b' } },
      { event: 'result', data: envelope('ab', 'exe_s') },
    ]);
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests;
    expect(first!.headers.accept).toBe('text/event-stream');
    expect(first!.query.has('format')).toBe(false);
    expect(second!.headers['x-trace-id']).toBe(first!.headers['x-trace-id']);
    expect(second!.body).toBe(first!.body);
  });

  it('never retries once the first byte has come: a cut stream fails its iteration', async () => {
    server.answer({ headers: sse, parts: [{ data: token('a') }, { delayMs: 20, data: 'event: tok' }], cutAfterParts: true }, { headers: sse, body: result });
    const stream = await fastClient(server).workflows.executeStream({ workflow: { name: 'w', tasks: [] } });
    const seen: ExecuteStreamEvent[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const event of stream) seen.push(event);
      })(),
    );
    expect(error).toBeInstanceOf(OzConnectionError);
    expect(seen).toEqual([{ event: 'token', data: { delta: 'a' } }]);
    expect(server.requests).toHaveLength(1);
  });

  it("the attempt timeout covers the wait for the stream's first byte, not the stream", async () => {
    server.answer({ headers: sse, parts: [{ data: token('a') }, { delayMs: 200, data: token('b') }, { delayMs: 50, data: result }] });
    const stream = await fastClient(server).workflows.executeStream({ workflow: { name: 'w', tasks: [] } }, { timeout: 100 });
    expect((await collect(stream)).map((e) => e.event)).toEqual(['token', 'token', 'result']);
  });

  it('aborting the signal cuts a stream at once with OzAbortError and removes the listener', async () => {
    server.answer({ headers: sse, parts: [{ data: token('a') }, { delayMs: 10_000, data: result }] });
    const controller = new AbortController();
    const stream = await fastClient(server).agents.execute({ agent: 'writer', user_request: 'hi', stream: true }, { signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    const error = await rejectionOf(
      (async () => {
        for await (const event of stream) if (event.event === 'token') controller.abort();
      })(),
    );
    expect(error).toBeInstanceOf(OzAbortError);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  }, 4000);

  it('breaking out of the loop, or reading to the end, removes the listener', async () => {
    const controller = new AbortController();
    const client = fastClient(server);
    server.answer({ headers: sse, parts: [{ data: token('a') }, { delayMs: 10_000, data: result }] });
    const early = await client.workflows.executeStream({ workflow: { name: 'w', tasks: [] } }, { signal: controller.signal });
    for await (const event of early) if (event.event === 'token') break;
    server.answer({ headers: sse, body: token('a') + result });
    await collect(await client.workflows.executeStream({ workflow: { name: 'w', tasks: [] } }, { signal: controller.signal }));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  }, 4000);

  it('a chat stream gives the OpenAI chunks until [DONE]', async () => {
    const chunk = {
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'oz-chat',
      choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }],
    };
    server.answer({ headers: { 'content-type': 'text/event-stream' }, body: `data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n` });
    const stream = await fastClient(server).chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'hi' }], stream: true });
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks).toEqual([chunk]);
    // Every write carries a trace id (the chat completion's POST too).
    expect(server.requests[0]!.headers['x-trace-id']).toMatch(/^exe_[A-Za-z0-9]{32}$/);
  });

  it("a chat stream cut after its first chunk is not retried: the loop ends with the stream's error, one request", async () => {
    const chunk = {
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'oz-chat',
      choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }],
    };
    server.answer(
      {
        headers: { 'content-type': 'text/event-stream' },
        parts: [{ data: `data: ${JSON.stringify(chunk)}\n\n` }, { delayMs: 20, data: 'data: {"id"' }],
        cutAfterParts: true,
      },
      { headers: { 'content-type': 'text/event-stream' }, body: 'data: [DONE]\n\n' },
    );
    const stream = await fastClient(server).chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'hi' }], stream: true });
    const seen: unknown[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const c of stream) seen.push(c);
      })(),
    );
    expect(error).toBeInstanceOf(OzConnectionError);
    expect(seen).toEqual([chunk]);
    expect(server.requests).toHaveLength(1);
  });
});

describe('metered calls (chat completions, embeddings) are safe to retry', () => {
  const completion = {
    id: 'chatcmpl_1',
    object: 'chat.completion',
    created: 1,
    model: 'oz-chat',
    choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
  };
  const embedding = {
    object: 'list',
    data: [{ object: 'embedding', index: 0, embedding: [0.1] }],
    model: 'oz-embed',
    usage: { prompt_tokens: 1, total_tokens: 1 },
  };

  it.each([
    [
      'chat.completions.create',
      (oz: ReturnType<typeof fastClient>) => oz.chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'hi' }] }),
      completion,
    ],
    ['embeddings.create', (oz: ReturnType<typeof fastClient>) => oz.embeddings.create({ model: 'oz-embed', input: 'x' }), embedding],
  ] as const)('%s sends an x-trace-id, the same one on the retry of a lost answer', async (_, call, body) => {
    server.answer({ destroy: true }, { body });
    await call(fastClient(server));
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests.map((r) => r.headers['x-trace-id']);
    expect(first).toMatch(/^exe_[A-Za-z0-9]{32}$/);
    expect(second).toBe(first);
  });

  it('each call has its own trace id', async () => {
    server.fallback = () => ({ body: embedding });
    const oz = fastClient(server);
    await oz.embeddings.create({ model: 'oz-embed', input: 'x' });
    await oz.embeddings.create({ model: 'oz-embed', input: 'x' });
    const [a, b] = server.requests.map((r) => r.headers['x-trace-id']);
    expect(a).not.toBe(b);
  });
});
