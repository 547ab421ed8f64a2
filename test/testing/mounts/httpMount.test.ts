import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { OzListener, OzServer } from '../../../src/testing/index.js';
import { testServersForSuite } from '../../support/ozServer.js';

const servers = testServersForSuite();
let server: OzServer;
let listener: OzListener | undefined;

describe('listen(): real sockets on 127.0.0.1', () => {
  it('serves the API on a free port and leaves the global Request and Response alone', async () => {
    const { Request: BeforeRequest, Response: BeforeResponse } = globalThis;
    server = servers.create();
    listener = await server.listen();
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(listener.mcpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(listener.mcpPort).not.toBe(listener.port);
    const res = await fetch(`${listener.url}/v1/tools/echo/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'over http' }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { content: string }).content).toBe('over http');
    expect(globalThis.Request).toBe(BeforeRequest);
    expect(globalThis.Response).toBe(BeforeResponse);
    expect(server.journal.last('executeTool')).toMatchObject({ mount: 'http', surface: 'api', status: 200 });
  });

  it('answers 404 not_found for unknown paths and methods, and 204 to a CORS preflight', async () => {
    server = servers.create();
    listener = await server.listen();
    const unknown = await fetch(`${listener.url}/v2/things`);
    expect([unknown.status, unknown.headers.get('x-error-code')]).toEqual([404, 'not_found']);
    const wrongMethod = await fetch(`${listener.url}/v1/tools`, { method: 'PUT', headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(wrongMethod.status).toBe(404);
    const head = await fetch(`${listener.url}/v1/tools`, { method: 'HEAD', headers: { authorization: `Bearer ${server.apiKey}` } });
    expect([head.status, head.headers.get('x-error-code')]).toEqual([404, 'not_found']);
    const preflight = await fetch(`${listener.url}/v1/tools/echo/execute`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    expect(preflight.headers.get('access-control-expose-headers')).toMatch(/x-request-id.*X-Execution-Id.*X-Error-Code/);
  });

  it('a listener sees the answer the socket carried; a lost answer is still seen, with its real status, while the client gets none', async () => {
    server = servers.create();
    listener = await server.listen();
    const seen: { status: number; code: string | null; body: string }[] = [];
    server.onResponse(
      (e) => void e.response.text().then((body) => seen.push({ status: e.response.status, code: e.response.headers.get('x-error-code'), body })),
    );
    const post = (text: string) =>
      fetch(`${listener!.url}/v1/tools/echo/execute`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
      });
    const answered = await post('seen');
    expect([answered.status, await answered.text()]).toEqual([200, seen[0]?.body]);
    const missing = await fetch(`${listener.url}/v1/tools/nope`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    await missing.body?.cancel();
    server.faults.add({ operationId: 'executeTool', type: 'lose' });
    await expect(post('lost')).rejects.toThrow(TypeError);
    server.faults.add({ operationId: 'executeTool', type: 'drop' });
    await expect(post('dropped')).rejects.toThrow(TypeError);
    await server.idle();
    expect(seen.map(({ status, code }) => [status, code])).toEqual([
      [200, null],
      [404, 'tool_not_found'],
      [200, null],
    ]);
    expect(JSON.parse(seen[2]!.body)).toMatchObject({ ok: true, content: 'lost' });
    expect(server.journal.filter('executeTool').map((e) => [e.fault, e.status])).toEqual([
      [null, 200],
      ['lose', 200],
      ['drop', null],
    ]);
  });

  it('keeps the headers of each request in its journal entry, readable after the connection is gone', async () => {
    server = servers.create();
    const own = await server.listen();
    const res = await fetch(`${own.url}/v1/tools/echo/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json', 'x-trace-id': 'journal-1', 'x-custom': 'kept' },
      body: JSON.stringify({ text: 'journaled' }),
    });
    expect(res.status).toBe(200);
    await own.close();
    const headers = server.journal.last('executeTool')!.headers;
    expect([headers['x-trace-id'], headers['x-custom'], headers['content-type']]).toEqual(['journal-1', 'kept', 'application/json']);
    expect(headers['host']).toBe(new URL(own.url).host);
    expect(server.journal.last('executeTool')!.headers).toBe(headers);
  });

  it('reads every form of request target and Host as the URL parser does, and keeps a connection alive after a stream', async () => {
    server = servers.create();
    listener = await server.listen();
    const port = listener.port;
    const auth = `authorization: Bearer ${server.apiKey}`;
    /** Sends raw requests on one connection and answers each answer's status line and body, in order. */
    const exchange = (requests: string[]): Promise<Array<{ status: number; body: string }>> =>
      new Promise((resolve, reject) => {
        const socket = connect({ port, host: '127.0.0.1' });
        const answers: Array<{ status: number; body: string }> = [];
        let data = '';
        const next = () => {
          if (answers.length === requests.length) {
            socket.end();
            return resolve(answers);
          }
          socket.write(requests[answers.length]!);
        };
        socket.on('connect', next);
        socket.on('error', reject);
        socket.on('data', (chunk) => {
          data += chunk.toString('latin1');
          const headEnd = data.indexOf('\r\n\r\n');
          if (headEnd < 0) return;
          const head = data.slice(0, headEnd);
          const length = /content-length: (\d+)/i.exec(head);
          let body: string;
          let rest: string;
          if (length) {
            if (data.length < headEnd + 4 + Number(length[1])) return;
            body = data.slice(headEnd + 4, headEnd + 4 + Number(length[1]));
            rest = data.slice(headEnd + 4 + Number(length[1]));
          } else {
            const end = data.indexOf('\r\n0\r\n\r\n', headEnd);
            if (end < 0) return;
            body = data.slice(headEnd + 4, end);
            rest = data.slice(end + 7);
          }
          answers.push({ status: Number(head.slice(9, 12)), body });
          data = rest;
          next();
        });
      });
    const host = `host: 127.0.0.1:${port}`;
    const get = (target: string, hostLine = host) => `GET ${target} HTTP/1.1\r\n${hostLine}\r\n${auth}\r\n\r\n`;
    const streamBody = JSON.stringify({ agent: 'writer', user_request: 'one two', stream: true });
    const answers = await exchange([
      get('/v1/tools/echo'),
      // Dot segments are resolved, as the URL parser does.
      get('/v1/tools/./nope/../echo'),
      // The Host's case is normalized (as by @hono/node-server: a Host that is more than a name and a port is refused;
      // on a loopback listener the Host must carry its port: see the DNS-rebinding rule).
      get('/v1/tools/echo', `host: LOCALHOST:${port}`),
      `POST /v1/execute HTTP/1.1\r\n${host}\r\n${auth}\r\ncontent-type: application/json\r\ncontent-length: ${streamBody.length}\r\n\r\n${streamBody}`,
      get('/v1/tools/echo?format=text'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(JSON.parse(answers[1]!.body)).toMatchObject({ name: 'echo' });
    expect(answers[3]!.body).toContain('event: result');
    expect(answers[4]!.body).toContain('name: echo');
    expect(server.journal.filter('getTool').map((e) => `${e.path}?${e.query}`)).toEqual([
      '/v1/tools/echo?',
      '/v1/tools/echo?',
      '/v1/tools/echo?',
      '/v1/tools/echo?format=text',
    ]);
    // A host name is case-insensitive, with a port too, on a plain target and on one the URL parser resolves.
    const capitals = await exchange([get('/v1/tools/echo', `host: LOCALHOST:${port}`), get('/v1/tools/./echo', `host: LocalHost:${port}`)]);
    expect(capitals.map((a) => a.status)).toEqual([200, 200]);
    const refused = await exchange([get('/v1/tools/echo', `host: evil.example@127.0.0.1:${port}`)]);
    expect(refused.map((a) => a.status)).toEqual([400]);
    const backslash = await exchange([get('/v1/tools\\echo')]);
    expect(backslash.map((a) => a.status)).toEqual([400]);
  });

  it('answers an empty 500 when the handler itself fails (a response listener that throws), and serves on', async () => {
    server = servers.create();
    listener = await server.listen();
    const stop = server.onResponse(() => {
      throw new Error('listener failed');
    });
    const failed = await fetch(`${listener.url}/health`);
    expect([failed.status, await failed.text()]).toEqual([500, '']);
    stop();
    expect((await fetch(`${listener.url}/health`)).status).toBe(200);
  });

  it('listens on a port given, and close() frees it', async () => {
    server = servers.create();
    const first = await server.listen();
    const port = first.port;
    await first.close();
    listener = await server.listen({ port });
    expect(listener.port).toBe(port);
    expect((await fetch(`${listener.url}/health`)).status).toBe(200);
  });
});
