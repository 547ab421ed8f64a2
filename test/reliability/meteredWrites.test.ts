/**
 * Metered calls are safe to retry (the contract's "Money and trust at the edges"): a chat completion, an embedding
 * and a proxied POST keep their non-streamed 2xx answer under (account, x-trace-id), so a lost answer retried by
 * the SDK, or a raw replay, draws from the wallet once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Oz } from '../../src/index.js';
import type { OperationId, OzListener, OzServer } from '../../src/testing/index.js';
import { createTestServer } from '../support/ozServer.js';
import { call } from '../testing/support/serverCall.js';

let server: OzServer | undefined;
let listener: OzListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
  await server?.close();
  server = undefined;
});

const spentMicros = (s: OzServer) => Math.round(s.wallet('demo').spent_usd * 1e6);

interface Metered {
  readonly operationId: OperationId;
  readonly path: string;
  readonly body: Record<string, unknown>;
  /** Another body for the same trace id. */
  readonly otherBody: Record<string, unknown>;
  /** The call through the SDK; answers what it cost, read from its answer. */
  sdk(oz: Oz): Promise<{ answer: unknown; micros: number }>;
}

const METERED: readonly Metered[] = [
  {
    operationId: 'createChatCompletion',
    path: '/v1/chat/completions',
    body: { model: 'oz-chat', messages: [{ role: 'user', content: 'hello there' }] },
    otherBody: { model: 'oz-chat', messages: [{ role: 'user', content: 'goodbye' }] },
    async sdk(oz) {
      const answer = await oz.chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'hello there' }] });
      return { answer, micros: answer.usage!.total_tokens * 2 };
    },
  },
  {
    operationId: 'createEmbedding',
    path: '/v1/embeddings',
    body: { model: 'oz-embed', input: 'one two three' },
    otherBody: { model: 'oz-embed', input: 'four' },
    async sdk(oz) {
      const answer = await oz.embeddings.create({ model: 'oz-embed', input: 'one two three' });
      return { answer, micros: answer.usage.total_tokens * 2 };
    },
  },
  {
    operationId: 'proxyPost',
    path: '/v1/proxy/crm/contacts',
    body: { name: 'Ada' },
    otherBody: { name: 'Bob' },
    async sdk(oz) {
      const answer = await oz.proxy.post('crm', 'contacts', { name: 'Ada' });
      return { answer, micros: Math.round((answer as { metered_usd: number }).metered_usd * 1e6) };
    },
  },
];

describe.each(['in process', 'over HTTP'] as const)('a metered call under a lost answer (%s)', (mount) => {
  it.each(METERED.map((m) => [m.operationId, m] as const))('%s: the SDK retries, the wallet is charged once', async (operationId, m) => {
    server = createTestServer();
    server.linkConnection('demo', 'crm');
    let oz = new Oz({ apiKey: server.apiKey, baseURL: server.url, fetch: server.fetch, logLevel: 'off', retry: { initialDelayMs: 1, maxDelayMs: 5 } });
    if (mount === 'over HTTP') {
      listener = await server.listen();
      oz = new Oz({ apiKey: server.apiKey, baseURL: listener.url, logLevel: 'off', retry: { initialDelayMs: 1, maxDelayMs: 5 } });
    }
    const before = spentMicros(server);
    server.faults.add({ operationId, type: 'lose' });
    const { answer, micros } = await m.sdk(oz);
    expect(micros).toBeGreaterThan(0);
    expect(spentMicros(server) - before).toBe(micros);
    const [first, retry, ...rest] = server.journal.filter({ operationId });
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ fault: 'lose', status: 200, replayed: false });
    expect(retry).toMatchObject({ fault: null, status: 200, replayed: true });
    expect(retry!.headers['x-trace-id']).toBe(first!.headers['x-trace-id']);
    expect(answer).toMatchObject(m.operationId === 'proxyPost' ? { body: m.body } : {});
  });
});

describe('a metered call replayed by hand', () => {
  it.each(METERED.map((m) => [m.operationId, m] as const))('%s: the same body answers the same bytes, replayed, free; another body is 409', async (_id, m) => {
    server = createTestServer();
    server.linkConnection('demo', 'crm');
    const headers = { 'x-trace-id': 'metered-1' };
    const first = await call(server, 'POST', m.path, { body: m.body, headers });
    const firstText = await first.text();
    expect(first.status).toBe(200);
    expect(first.headers.get('x-idempotent-replayed')).toBeNull();
    const spent = spentMicros(server);
    expect(spent).toBeGreaterThan(0);

    const again = await call(server, 'POST', m.path, { body: m.body, headers });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(firstText);
    expect(spentMicros(server)).toBe(spent);

    const other = await call(server, 'POST', m.path, { body: m.otherBody, headers });
    expect(other.status).toBe(409);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe('idempotency_conflict');
    expect(spentMicros(server)).toBe(spent);
  });

  it('a streamed chat completion is not kept: the same trace id streams again', async () => {
    server = createTestServer({ timing: { tokenMs: 0 } });
    const body = { model: 'oz-chat', stream: true, messages: [{ role: 'user', content: 'hi' }] };
    const headers = { 'x-trace-id': 'streamed-1' };
    for (let i = 0; i < 2; i++) {
      const res = await call(server, 'POST', '/v1/chat/completions', { body, headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-idempotent-replayed')).toBeNull();
      expect(await res.text()).toContain('data: [DONE]');
    }
  });
});
