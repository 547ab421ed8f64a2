/**
 * Stub headers follow Node's rules (the contract's "Money and trust at the edges"): no CR, LF, NUL, nothing past
 * Latin-1, no framing header; others are 422 naming the header, in process (`OzMockError`) and over HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OzMockError } from '../../../src/testing/contract/errors.js';
import type { OzListener, OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { callJson, type ErrorBody } from '../support/serverCall.js';

const TOKEN = `ozadm_${'h'.repeat(32)}`;
let server: OzServer | undefined;
let listener: OzListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
  await server?.close();
  server = undefined;
});

const BAD: ReadonlyArray<readonly [string, Record<string, string>, string]> = [
  ['CR LF in a value', { 'x-note': 'a\r\nset-cookie: b=1' }, 'answer.headers.x-note: the value holds U+000D'],
  ['NUL in a value', { 'x-note': 'a\u0000b' }, 'answer.headers.x-note: the value holds U+0000'],
  ['a character past Latin-1', { 'x-note': 'price €5' }, 'answer.headers.x-note: the value holds U+20AC'],
  ['a name that is no token', { 'x note': 'a' }, 'answer.headers.x note: a header name is'],
  ['a newline in a name', { 'x-a\nb': 'a' }, 'answer.headers.x-a\\nb: a header name is'],
  ['transfer-encoding', { 'Transfer-Encoding': 'chunked' }, 'answer.headers.Transfer-Encoding: the server frames the answer itself'],
  ['content-length', { 'content-length': '5' }, 'answer.headers.content-length: the server frames'],
  ['connection', { connection: 'close' }, 'answer.headers.connection: the server frames'],
];

describe('stub headers', () => {
  it.each(BAD)('%s: 422 over HTTP and in process, nothing armed', async (_name, headers, message) => {
    server = createTestServer({ adminToken: TOKEN });
    const stub = {
      operationId: 'listTools' as const,
      answer: { status: 200 as const, body: { object: 'list', data: [], has_more: false, next_cursor: null }, headers },
    };
    const res = await callJson<ErrorBody>(server, 'POST', '/_oz/stubs', { key: TOKEN, body: stub });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('invalid_params');
    expect(res.body.error.message).toContain(message);
    let thrown: unknown = null;
    try {
      server.stubs.add(stub);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(OzMockError);
    expect((thrown as OzMockError).status).toBe(422);
    expect((thrown as OzMockError).message).toContain(message);
    expect(server.stubs.list()).toEqual([]);
  });

  it('a Latin-1 value is sent over real HTTP; a respond function with a bad header answers a 500 envelope', async () => {
    server = createTestServer();
    listener = await server.listen();
    const list = { object: 'list', data: [], has_more: false, next_cursor: null };
    server.stubs.add({ operationId: 'listTools', answer: { status: 200, body: list, headers: { 'x-note': 'café' } }, times: 1 });
    const ok = await fetch(`${listener.url}/v1/tools`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(ok.status).toBe(200);
    // The socket sink writes header bytes as UTF-8 (undici reads them as Latin-1): either way the value arrives whole.
    expect(Buffer.from(ok.headers.get('x-note')!, 'latin1').toString('utf8')).toBe('café');
    server.stubs.add({ operationId: 'listTools', respond: () => ({ status: 200, body: list, headers: { 'transfer-encoding': 'chunked' } }) as const });
    const bad = await fetch(`${listener.url}/v1/tools`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(bad.status).toBe(500);
    expect(bad.headers.get('transfer-encoding') === null || bad.headers.get('content-length') === null).toBe(true);
    const body = (await bad.json()) as ErrorBody;
    expect(body.error.code).toBe('internal_error');
    expect(body.error.message).toContain('answer.headers.transfer-encoding: the server frames the answer itself');
  });
});
