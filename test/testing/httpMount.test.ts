import { describe, expect, it } from 'vitest';
import type { OzListener, OzServer } from '../../src/testing/index.js';
import { testServersForSuite } from '../support/ozServer.js';

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
    server.onResponse((e) => void e.response.text().then((body) => seen.push({ status: e.response.status, code: e.response.headers.get('x-error-code'), body })));
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
    expect([headers.get('x-trace-id'), headers.get('x-custom'), headers.get('content-type')]).toEqual(['journal-1', 'kept', 'application/json']);
    expect(headers.get('host')).toBe(new URL(own.url).host);
    expect(server.journal.last('executeTool')!.headers).toBe(headers);
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
