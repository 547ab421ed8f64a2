/**
 * Hostile input on every mount (issue 22, points 1, 2 and 4; the contract's "Hostile input"): the body bound in
 * process and through the SDK, the journal's bounded body, the loopback Host check on every surface of a
 * listener, and a dashboard a web page cannot use. The process-level cases are in hostileProcess.test.ts.
 */
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Http413Error, Oz, PayloadTooLargeError } from '../../src/index.js';
import type { OzListener, OzServer } from '../../src/testing/index.js';
import { createTestServer } from '../support/ozServer.js';

let server: OzServer | undefined;
let listener: OzListener | undefined;
afterEach(async () => {
  await listener?.close();
  await server?.close();
  server = listener = undefined;
});

describe('the body bound in process (point 1)', () => {
  it('maxBodyBytes: 413 payload_too_large, PayloadTooLargeError through the SDK; a body at the bound passes', async () => {
    server = createTestServer({ maxBodyBytes: 2048 });
    const oz = new Oz({ apiKey: server.apiKey, baseURL: server.url, fetch: server.fetch, maxRetries: 0, logLevel: 'off' });
    const error = await oz.tools.execute('echo', { text: 'x'.repeat(3000) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(error).toBeInstanceOf(Http413Error);
    expect(error).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(await oz.tools.execute('echo', { text: 'x'.repeat(1000) })).toBeDefined();
  });

  it('reads no byte of a body whose Content-Length is over the bound, nor of any body sent without a good key', async () => {
    server = createTestServer({ maxBodyBytes: 2048 });
    let pulled = 0;
    const body = () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled++;
          controller.enqueue(new Uint8Array(1024));
          if (pulled > 100) controller.close();
        },
      });
    const init = (headers: Record<string, string>) =>
      ({ method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: body(), duplex: 'half' }) as RequestInit;
    const declared = await server.fetch(`${server.url}/v1/tools/echo/execute`, init({ authorization: `Bearer ${server.apiKey}`, 'content-length': '999999' }));
    expect([declared.status, declared.headers.get('x-error-code')]).toEqual([413, 'payload_too_large']);
    const unkeyed = await server.fetch(`${server.url}/v1/tools/echo/execute`, init({}));
    expect(unkeyed.status).toBe(401);
    // A stream starts one pull on its own; nothing more was read.
    expect(pulled).toBeLessThanOrEqual(2);
    // Streamed without a length: cut as soon as it passes the bound.
    const streamed = await server.fetch(`${server.url}/v1/tools/echo/execute`, init({ authorization: `Bearer ${server.apiKey}` }));
    expect(streamed.status).toBe(413);
    expect(pulled).toBeLessThan(10);
  });

  it('holds on the control plane and the dashboard too, and refuses a bad option', async () => {
    server = createTestServer({ maxBodyBytes: 1024 });
    const big = JSON.stringify({ accounts: [{ name: 'x'.repeat(2000) }] });
    const fixtures = await server.fetch(`${server.url}/_oz/fixtures`, { method: 'POST', headers: { authorization: `Bearer ${server.adminToken}` }, body: big });
    expect([fixtures.status, ((await fixtures.json()) as { error: { code: string } }).error.code]).toEqual([413, 'payload_too_large']);
    const token = await server.fetch(`${server.dashboardUrl}/api/cli/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'x'.repeat(2000) }),
    });
    expect([token.status, ((await token.json()) as { error: { code: string } }).error.code]).toEqual([413, 'payload_too_large']);
    expect(() => createTestServer({ maxBodyBytes: 0 })).toThrow(/maxBodyBytes must be a whole number from 1 to 268435456/);
    expect(() => createTestServer({ maxConnectionsPerAddress: 0 })).toThrow(/maxConnectionsPerAddress must be a whole number >= 1/);
  });
});

describe('the journal keeps a bounded body (point 2)', () => {
  it('the first 64 KiB with the whole length and a truncation mark, in process and in the control plane; nothing of an unkeyed body', async () => {
    server = createTestServer();
    const text = `é${'x'.repeat(200 * 1024)}`;
    const sent = JSON.stringify({ text });
    await server.fetch(`${server.url}/v1/tools/echo/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: sent,
    });
    await server.fetch(`${server.url}/v1/tools/echo/execute`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: sent });
    await server.fetch(`${server.url}/v1/tools/echo/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: '{"text":"é"}',
    });
    const [long, unkeyed, short] = server.journal.filter('executeTool');
    expect([long!.bodyLength, long!.bodyTruncated, new TextEncoder().encode(long!.body!).length]).toEqual([Buffer.byteLength(sent), true, 64 * 1024]);
    expect(sent.startsWith(long!.body!)).toBe(true);
    expect([unkeyed!.status, unkeyed!.body, unkeyed!.bodyLength, unkeyed!.bodyTruncated]).toEqual([401, null, null, false]);
    expect([short!.body, short!.bodyLength, short!.bodyTruncated]).toEqual(['{"text":"é"}', 13, false]);
    const view = (await (
      await server.fetch(`${server.url}/_oz/journal?operationId=executeTool`, { headers: { authorization: `Bearer ${server.adminToken}` } })
    ).json()) as {
      data: Array<{ body: string | null; bodyLength: number | null; bodyTruncated: boolean }>;
    };
    expect(view.data.map((e) => [e.body?.length ?? null, e.bodyLength, e.bodyTruncated])).toEqual([
      [long!.body!.length, Buffer.byteLength(sent), true],
      [null, null, false],
      [12, 13, false],
    ]);
  });
});

/** A raw request with the Host a rebound page would send. */
function raw(
  url: string,
  host: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? 'GET', headers: { host, ...init.headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject).end(init.body);
  });
}

describe('the loopback Host check on every surface (point 4)', () => {
  it('a foreign Host answers 403 forbidden_host on the API, /health, MCP, the dashboard and the control plane (with its token), without CORS', async () => {
    server = createTestServer();
    listener = await server.listen();
    const key = { authorization: `Bearer ${server.apiKey}` };
    const admin = { authorization: `Bearer ${server.adminToken}` };
    const targets: Array<[string, { method?: string; headers?: Record<string, string>; body?: string }]> = [
      [`${listener.url}/health`, {}],
      [`${listener.url}/v1/tools`, { headers: key }],
      [`${listener.url}/v1/tools/echo/execute`, { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: '{"text":"x"}' }],
      [`${listener.url}/nope`, {}],
      [`${listener.url}/_oz/journal`, { headers: admin }],
      [`${listener.url}/dashboard/api/cli/authorize?port=9999&state=s`, {}],
      [listener.mcpUrl, { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }],
    ];
    for (const [url, init] of targets) {
      const port = new URL(url).port;
      const res = await raw(url, `evil.example:${port}`, { ...init, headers: { ...init.headers, origin: 'http://evil.example' } });
      expect([res.status, res.headers['x-error-code']], url).toEqual([403, 'forbidden_host']);
      expect(res.headers['access-control-allow-origin'], url).toBeUndefined();
      expect(JSON.parse(res.text).error.message).toContain(`Host evil.example:${port} is not allowed`);
      const allowed = await raw(url, `localhost:${port}`, init);
      expect(allowed.status, url).not.toBe(403);
    }
    // Refused before anything: only the five allowed requests of the API and MCP were journaled.
    expect(server.journal.entries.map((e) => e.status === 403)).toEqual([false, false, false, false, false]);
  });

  it('the dashboard sends no CORS headers, and a page on another origin gets neither a code nor a key', async () => {
    server = createTestServer();
    listener = await server.listen();
    const host = `127.0.0.1:${listener.port}`;
    const page = { origin: 'https://evil.example' };
    // A page's fetch of authorize (cors mode: it would read the code from the redirect's end): refused.
    const authorize = await raw(`${listener.dashboardUrl}/api/cli/authorize?port=${listener.port}&state=s`, host, { headers: page });
    expect([authorize.status, JSON.parse(authorize.text).error.code, authorize.headers.location]).toEqual([403, 'forbidden_origin', undefined]);
    // The browser's own navigation (no Origin) signs in as before, with no CORS headers.
    const navigation = await raw(`${listener.dashboardUrl}/api/cli/authorize?port=${listener.port}&state=s`, host);
    expect(navigation.status).toBe(302);
    const code = new URL(navigation.headers.location as string).searchParams.get('code')!;
    // A page's POST with a text/plain body (no preflight): refused before the code is used.
    const textPlain = await raw(`${listener.dashboardUrl}/api/cli/token`, host, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ code }),
    });
    expect(textPlain.status).toBe(415);
    const fromPage = await raw(`${listener.dashboardUrl}/api/cli/token`, host, {
      method: 'POST',
      headers: { ...page, 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect([fromPage.status, JSON.parse(fromPage.text).error.code]).toEqual([403, 'forbidden_origin']);
    const preflight = await raw(`${listener.dashboardUrl}/api/cli/token`, host, {
      method: 'OPTIONS',
      headers: { ...page, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    for (const res of [authorize, navigation, textPlain, fromPage, preflight]) {
      expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
    // The command line (no Origin, JSON) still trades the code once.
    const cli = await raw(`${listener.dashboardUrl}/api/cli/token`, host, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect([cli.status, JSON.parse(cli.text).key]).toEqual([200, expect.stringMatching(/^ozk_/)]);
  });
});
