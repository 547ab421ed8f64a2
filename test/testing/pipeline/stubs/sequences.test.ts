/**
 * Stub sequences (`answers: [...]`, `then`): the n-th matching request gets the n-th answer, the last repeats or
 * the stub falls through to the server; listings show the position and the hits. In process and over HTTP.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { InternalError, Oz } from '../../../../src/index.js';
import { connectOzMock, type OzListener, type OzServer } from '../../../../src/testing/index.js';
import { listenedServer } from '../../support/listenedServer.js';

const TOKEN = 'ozadm_SeqSeqSeqSeqSeqSeqSeqSeqSeqSeqSe';
const suite = listenedServer({ adminToken: TOKEN });
let server: OzServer;
let listener: OzListener;
let oz: Oz;

beforeAll(() => {
  ({ server, listener } = suite);
  oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, maxRetries: 0, logLevel: 'off' });
});

const unavailable = { status: 500, body: { error: { code: 'internal_error', message: 'Try again.' } } } as const;
const echoed = (content: string) =>
  ({ status: 200, body: { ok: true, content, execution_id: 'exe_SeqSeqSeqSeqSeqSeqSeqSeqSeqSeqSe', request_id: 'req_seq' } }) as const;

describe('in process', () => {
  it('first a 500, then the answer: a client that retries gets the answer; one that does not, the typed error', async () => {
    server.stubs.add({ operationId: 'executeTool', answers: [unavailable, echoed('second')] });
    await expect(oz.tools.execute('echo', { text: 'x' })).rejects.toBeInstanceOf(InternalError);
    expect((await oz.tools.execute('echo', { text: 'x' })).content).toBe('second');
    expect((await oz.tools.execute('echo', { text: 'x' })).content).toBe('second'); // the last answer repeats

    server.stubs.clear();
    server.stubs.add({ operationId: 'executeTool', answers: [unavailable, echoed('after a retry')] });
    expect((await oz.tools.execute('echo', { text: 'x' }, { maxRetries: 1, retry: { initialDelayMs: 1 } })).content).toBe('after a retry');
    expect(server.journal.filter('executeTool').map((e) => e.status)).toEqual([500, 200, 200, 500, 200]);
  });

  it('the first two polls say running, the third succeeded: wait() ends with the scripted result', async () => {
    const run = await oz.tools.execute('echo', { text: 'hi' });
    const record = server.getExecution(run.execution_id)!;
    const running = { status: 200, body: { ...record, status: 'running', result: null, finished_at: null } } as const;
    const done = { status: 200, body: { ...record, status: 'succeeded' } } as const;
    const stub = server.stubs.add({ operationId: 'getExecution', answers: [running, running, done] });
    const waited = await oz.executions.wait(record.id, { interval: 1 });
    expect(waited).toMatchObject({ ok: true, content: 'hi' });
    expect(stub.hits).toBe(3);
    expect(server.journal.filter('getExecution').map((e) => e.status)).toEqual([200, 200, 200]);
    expect(server.stubs.list()[0]).toMatchObject({ position: 2, hits: 3, then: 'repeat', answer: done, answers: [running, running, done] });
  });

  it('lists the answer the next request gets and its position as the sequence moves', async () => {
    server.stubs.add({ operationId: 'executeTool', answers: [echoed('a'), echoed('b')] });
    expect(server.stubs.list()[0]).toMatchObject({ position: 0, hits: 0, answer: echoed('a') });
    await oz.tools.execute('echo', { text: 'x' });
    expect(server.stubs.list()[0]).toMatchObject({ position: 1, hits: 1, answer: echoed('b') });
    await oz.tools.execute('echo', { text: 'x' });
    expect(server.stubs.list()[0]).toMatchObject({ position: 1, hits: 2, answer: echoed('b') });
  });

  it("then: 'fallthrough' gives each answer once, then the server answers and the stub is withdrawn", async () => {
    const stub = server.stubs.add({ operationId: 'executeTool', answers: [echoed('one'), echoed('two')], then: 'fallthrough' });
    expect(stub.remaining).toBe(2);
    expect((await oz.tools.execute('echo', { text: 'real' })).content).toBe('one');
    expect((await oz.tools.execute('echo', { text: 'real' })).content).toBe('two');
    expect((await oz.tools.execute('echo', { text: 'real' })).content).toBe('real');
    expect(server.stubs.list()).toEqual([]);
  });

  it('an older stub answers once a newer sequence fell through; times caps a sequence', async () => {
    server.stubs.add({ operationId: 'executeTool', answer: echoed('older') });
    server.stubs.add({ operationId: 'executeTool', answers: [echoed('a'), echoed('b'), echoed('c')], then: 'fallthrough', times: 1 });
    expect((await oz.tools.execute('echo', { text: 'x' })).content).toBe('a');
    expect((await oz.tools.execute('echo', { text: 'x' })).content).toBe('older');
  });

  it('a sequence matches as a stub does: only the matching requests move it on', async () => {
    server.stubs.add({ operationId: 'executeTool', match: { path: { tool: 'sum' } }, answers: [echoed('1'), echoed('2')] });
    expect((await oz.tools.execute('echo', { text: 'untouched' })).content).toBe('untouched');
    expect((await oz.tools.execute('sum', { a: 1, b: 2 })).content).toBe('1');
    expect(server.stubs.list()[0]).toMatchObject({ position: 1, hits: 1 });
  });

  it('refuses a bad sequence with a TypeError, and an answer openapi.json forbids with 422 naming its index', () => {
    expect(() => server.stubs.add({ operationId: 'executeTool', answers: [] })).toThrow(/answers must be a non-empty array/);
    expect(() => server.stubs.add({ operationId: 'executeTool', answers: [echoed('x'), { status: 99 } as never] })).toThrow(
      /answers\[1\]: answer.status must be an HTTP status/,
    );
    // @ts-expect-error refused at compile time too
    expect(() => server.stubs.add({ operationId: 'executeTool', answer: echoed('x'), answers: [echoed('y')] })).toThrow(
      /Give answer, answers or respond \(one of them\)/,
    );
    // @ts-expect-error refused at compile time too
    expect(() => server.stubs.add({ operationId: 'executeTool', answer: echoed('x'), then: 'fallthrough' })).toThrow(/then goes with answers/);
    expect(() => server.stubs.add({ operationId: 'executeTool', answers: [echoed('x')], then: 'loop' as never })).toThrow(
      /then goes with answers and is one of: repeat, fallthrough/,
    );
    // @ts-expect-error refused at compile time too
    expect(() => server.stubs.add({ operationId: 'executeTool', answers: [echoed('x'), { status: 200, body: { ok: 'yes' } }] })).toThrow(/answers\[1\]\.body/);
    expect(server.stubs.list()).toEqual([]);
  });
});

describe('over HTTP', () => {
  async function ozc(method: string, path: string, body?: unknown) {
    const res = await fetch(`${listener.url}/_oz${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }
  const execute = async () => {
    const res = await fetch(`${listener.url}/v1/tools/echo/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: '{"text":"real"}',
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it('POST /_oz/stubs takes answers and then; GET /_oz/stubs shows the position and the hits', async () => {
    const added = await ozc('POST', '/stubs', { operationId: 'executeTool', answers: [unavailable, echoed('scripted')], then: 'fallthrough' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ position: 0, hits: 0, remaining: 2, then: 'fallthrough', answer: unavailable });
    expect((await execute()).status).toBe(500);
    expect((await ozc('GET', '/stubs')).body.data[0]).toMatchObject({ position: 1, hits: 1, remaining: 1, answer: echoed('scripted') });
    expect((await execute()).body.content).toBe('scripted');
    expect((await execute()).body.content).toBe('real');
    expect((await ozc('GET', '/stubs')).body.data).toEqual([]);
  });

  it('a bad sequence is 422 invalid_params naming the answer', async () => {
    const bad = await ozc('POST', '/stubs', { operationId: 'executeTool', answers: [echoed('x'), { status: 200, body: { ok: 'yes' } }] });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatchObject({ code: 'invalid_params', message: expect.stringMatching(/answers\[1\]\.body/) });
    expect((await ozc('POST', '/stubs', { operationId: 'executeTool', answers: [] })).status).toBe(422);
  });

  it('connectOzMock: stubs.add with answers', async () => {
    const mock = connectOzMock({ url: listener.url, adminToken: TOKEN });
    await mock.stubs.add({ operationId: 'executeTool', answers: [echoed('first'), echoed('then')] });
    const client = new Oz({ baseURL: listener.url, apiKey: server.apiKey, maxRetries: 0, logLevel: 'off' });
    expect((await client.tools.execute('echo', { text: 'x' })).content).toBe('first');
    expect((await client.tools.execute('echo', { text: 'x' })).content).toBe('then');
    expect(await mock.stubs.list()).toMatchObject([{ position: 1, hits: 2, then: 'repeat' }]);
  });
});
