/**
 * Proxy stubs (`answer: { proxy }`): the request goes on to a real second server on loopback and its answer comes
 * back as it came, in process and over HTTP. The embedded server here is `createOzServer` itself, not the test
 * server that checks answers against openapi.json: a proxied answer is the other service's, whatever it is.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectOzMock, createOzServer, OzMockError, type OzServer } from '../../../../src/testing/index.js';
import { readStubFile } from '../../../../src/testing/fixtures/stubFile.js';

const TOKEN = 'ozadm_ProxyProxyProxyProxyProxyProxyPr';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A tiny service on loopback: records what it got, answers with `answer`. */
async function service(
  answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; seen: Seen[]; closed: Promise<void>[]; server: Server }> {
  const seen: Seen[] = [];
  const closed: Promise<void>[] = [];
  const server = createServer((req, res) => {
    closed.push(once(res, 'close').then(() => undefined));
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      answer(req, res);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, closed, server };
}

let oz: OzServer;
const targets: Server[] = [];
beforeEach(() => {
  oz = createOzServer({ adminToken: TOKEN });
});
afterEach(async () => {
  await oz.close();
  for (const t of targets.splice(0)) t.close();
});

async function target(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const t = await service(answer);
  targets.push(t.server);
  return t;
}

const call = (path: string, init: RequestInit = {}) =>
  oz.fetch(`${oz.url}${path}`, { ...init, headers: { authorization: `Bearer ${oz.apiKey}`, ...init.headers } });

describe('in process: server.stubs.add with answer: { proxy }', () => {
  it("sends the request on (path, query, body, the caller's key, the target's Host) and answers as it came; the journal marks it proxied", async () => {
    const t = await target((_req, res) => {
      res.writeHead(207, { 'content-type': 'text/x-own; charset=utf-8', 'x-from': 'target', connection: 'keep-alive', 'keep-alive': 'timeout=5' });
      res.end('as it came');
    });
    oz.stubs.add({ operationId: 'executeTool', answer: { proxy: `${t.url}/base` } });
    const res = await call('/v1/tools/echo/execute?x=1', {
      method: 'POST',
      headers: { 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify({ text: 'hi' }),
    });
    expect(res.status).toBe(207);
    expect(res.headers.get('content-type')).toBe('text/x-own; charset=utf-8');
    expect(res.headers.get('x-from')).toBe('target');
    expect(res.headers.get('keep-alive')).toBeNull();
    expect(await res.text()).toBe('as it came');
    const [got] = t.seen;
    expect(got).toMatchObject({ method: 'POST', url: '/base/v1/tools/echo/execute?x=1', body: '{"text":"hi"}' });
    expect(got!.headers.authorization).toBe(`Bearer ${oz.apiKey}`);
    expect(got!.headers.host).toBe(new URL(t.url).host);
    const entry = oz.journal.last('executeTool')!;
    expect(entry.proxied).toBe(`${t.url}/base/v1/tools/echo/execute`);
    expect(entry.status).toBe(207);
  });

  it("sends proxyApiKey instead of the caller's key; listings show only its last four characters", async () => {
    const t = await target((_req, res) => res.end('{}'));
    const key = 'sk-real-service-key-0123456789WXYZ';
    oz.stubs.add({ operationId: 'listTools', answer: { proxy: t.url, proxyApiKey: key } });
    await call('/v1/tools');
    expect(t.seen[0]!.headers.authorization).toBe(`Bearer ${key}`);
    const listed = JSON.stringify(oz.stubs.list());
    expect(listed).not.toContain(key);
    expect(oz.stubs.list()[0]!.answer).toEqual({ proxy: t.url, proxyApiKey: '…WXYZ' });
    expect(JSON.stringify(oz.journal.entries)).not.toContain(key);
  });

  it('never sends a header holding the admin token on', async () => {
    const t = await target((_req, res) => res.end('{}'));
    oz.stubs.add({ operationId: 'listTools', answer: { proxy: t.url } });
    await call('/v1/tools', { headers: { 'x-note': `token ${TOKEN}` } });
    expect(t.seen[0]!.headers['x-note']).toBeUndefined();
  });

  it('streams the answer through: the first bytes arrive before the target ends', async () => {
    let finish: () => void = () => undefined;
    const t = await target((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: token\ndata: {"delta":"Hel"}\n\n');
      finish = () => res.end('event: token\ndata: {"delta":"lo"}\n\n');
    });
    oz.stubs.add({ operationId: 'listTools', answer: { proxy: t.url } });
    const res = await call('/v1/tools');
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('Hel');
    expect(first).not.toContain('lo"');
    finish();
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toContain('"lo"');
  });

  it('answers a redirect as it came, never following it to another host', async () => {
    const other = await target((_req, res) => res.end('followed'));
    const t = await target((_req, res) => {
      res.writeHead(302, { location: `${other.url}/elsewhere` });
      res.end();
    });
    oz.stubs.add({ operationId: 'listTools', answer: { proxy: t.url } });
    const res = await call('/v1/tools', { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${other.url}/elsewhere`);
    expect(other.seen).toHaveLength(0);
  });

  it('an unreachable target answers 502 upstream_error naming it', async () => {
    const t = await target((_req, res) => res.end());
    t.server.close();
    await once(t.server, 'close');
    oz.stubs.add({ operationId: 'listTools', answer: { proxy: t.url } });
    const res = await call('/v1/tools');
    expect(res.status).toBe(502);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('upstream_error');
    expect(body.error.message).toContain(t.url);
    expect(oz.journal.last('listTools')!.proxied).toBe(`${t.url}/v1/tools`);
  });

  it('an answer larger than maxBodyBytes answers 502 (by its length) or is cut (while it streams)', async () => {
    await oz.close();
    oz = createOzServer({ adminToken: TOKEN, maxBodyBytes: 1000 });
    const declared = await target((_req, res) => res.end('x'.repeat(2000)));
    oz.stubs.add({ operationId: 'listTools', answer: { proxy: declared.url } });
    const res = await call('/v1/tools');
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/more than the server's maxBodyBytes \(1000\)/);
    const streamed = await target((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('y'.repeat(600));
      res.end('y'.repeat(600));
    });
    oz.stubs.clear();
    oz.stubs.add({ operationId: 'listTools', answer: { proxy: streamed.url } });
    const cut = await call('/v1/tools');
    expect(cut.status).toBe(200);
    await expect(cut.text()).rejects.toThrow();
  });

  it("the caller's abort aborts the proxied request", async () => {
    const t = await target((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('start');
    });
    oz.stubs.add({ operationId: 'listTools', answer: { proxy: t.url } });
    const abort = new AbortController();
    const res = await call('/v1/tools', { signal: abort.signal });
    await res.body!.getReader().read();
    abort.abort();
    await t.closed[0];
  });

  it('refuses a bad proxy URL with 422 naming the field', () => {
    for (const proxy of ['not a url', 'ftp://example.com', 'http://user:pw@example.com', 'http://example.com/?q=1']) {
      expect(() => oz.stubs.add({ operationId: 'listTools', answer: { proxy } })).toThrow(
        expect.objectContaining({ status: 422, code: 'invalid_params', fields: { missing: ['answer.proxy'] } }) as Error,
      );
    }
    expect(() => oz.stubs.add({ operationId: 'listTools', answers: [{ proxy: 'nope' }] })).toThrow(/answers\[0\]\.proxy/);
    expect(() => oz.stubs.add({ operationId: 'listTools', answer: { proxy: 'http://x.test', status: 200 } as never })).toThrow(
      /answer\.status: a proxy answer takes only proxy and proxyApiKey/,
    );
  });
});

describe('over HTTP: POST /_oz/stubs with answer: { proxy }', () => {
  it('proxies, journals the target (never the key) and lists the key cut', async () => {
    const t = await target((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data":[],"from":"target"}');
    });
    const listener = await oz.listen();
    const mock = connectOzMock({ url: listener.url, adminToken: TOKEN });
    const key = 'sk-real-service-key-abcdefghijQRST';
    await mock.stubs.add({ operationId: 'listTools', answer: { proxy: t.url, proxyApiKey: key } });
    const res = await fetch(`${listener.url}/v1/tools`, { headers: { authorization: `Bearer ${oz.apiKey}` } });
    expect(await res.json()).toEqual({ data: [], from: 'target' });
    expect(t.seen[0]!.headers.authorization).toBe(`Bearer ${key}`);
    const journal = await fetch(`${listener.url}/_oz/journal`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const text = await journal.text();
    expect(text).not.toContain(key);
    expect(text).not.toContain(TOKEN);
    expect((JSON.parse(text) as { data: Array<{ proxied: string | null }> }).data.at(-1)!.proxied).toBe(`${t.url}/v1/tools`);
    const stubs = await fetch(`${listener.url}/_oz/stubs`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const listed = await stubs.text();
    expect(listed).not.toContain(key);
    expect(listed).toContain('…QRST');
  });

  it('refuses a bad proxy URL with 422 naming answer.proxy', async () => {
    const listener = await oz.listen();
    const res = await fetch(`${listener.url}/_oz/stubs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ operationId: 'listTools', answer: { proxy: 'javascript:alert(1)' } }),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('answer.proxy');
  });
});

describe('proxy stubs from a stubs file and in the types', () => {
  it('a stubs file (--stubs) takes a proxy answer; a bad URL names the entry and the field', async () => {
    const t = await target((_req, res) => res.end('{"from":"file"}'));
    const stubs = readStubFile(JSON.stringify([{ operationId: 'listTools', answer: { proxy: t.url } }]), 'stubs.json');
    await oz.close();
    oz = createOzServer({ adminToken: TOKEN, stubs });
    expect(await (await call('/v1/tools')).json()).toEqual({ from: 'file' });
    expect(() => readStubFile(JSON.stringify([{ operationId: 'listTools', answer: { proxy: 'nope' } }]), 'stubs.json')).toThrow(
      /stubs\.json: entry \[0\] \(listTools\): answer\.proxy must be an absolute http: or https: URL/,
    );
  });

  it('types a proxy answer for every operation, and refuses a proxy beside a body', () => {
    const typed = () => {
      oz.stubs.add({ operationId: 'getCompanyItem', match: { path: { id: 'itm_1' } }, answer: { proxy: 'http://127.0.0.1:1', proxyApiKey: 'k' } });
      oz.stubs.add({
        operationId: 'executeAgent',
        answers: [{ proxy: 'http://127.0.0.1:1' }, { status: 200, events: [{ event: 'token', data: { delta: 'x' } }] }],
      });
      // @ts-expect-error: a proxy answer takes no body (the service answers)
      oz.stubs.add({ operationId: 'listTools', answer: { proxy: 'http://127.0.0.1:1', body: { data: [], next_cursor: null } } });
      // @ts-expect-error: proxy is a URL string
      oz.stubs.add({ operationId: 'listTools', answer: { proxy: 1 } });
    };
    expect(typed).toThrow(/answer\.body: a proxy answer takes only proxy and proxyApiKey/);
  });
});

describe('over HTTP: the caller going away', () => {
  it('aborts the proxied request', async () => {
    const t = await target((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('start');
    });
    oz.stubs.add({ operationId: 'listTools', answer: { proxy: t.url } });
    const listener = await oz.listen();
    const abort = new AbortController();
    const res = await fetch(`${listener.url}/v1/tools`, { headers: { authorization: `Bearer ${oz.apiKey}` }, signal: abort.signal });
    await res.body!.getReader().read();
    abort.abort();
    await t.closed[0];
  });
});

describe('a stub naming a path parameter its operation lacks', () => {
  it('is refused in process with 422 naming it and the known ones', () => {
    let thrown: unknown;
    try {
      oz.stubs.add({
        operationId: 'getCompanyItem',
        match: { path: { item: 'itm_1' } as never },
        answer: { status: 404, body: { error: { code: 'item_not_found', message: 'x' } } },
      });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(OzMockError);
    expect(thrown).toMatchObject({ status: 422, code: 'invalid_params', fields: { missing: ['match.path.item'] } });
    expect((thrown as Error).message).toMatch(/no path parameter item \(its path parameters: campus, id\)/);
    expect(() =>
      oz.stubs.add({ operationId: 'listTools', match: { path: { tool: 'x' } as never }, answer: { status: 200, body: { data: [] } } as never }),
    ).toThrow(/it has no path parameters/);
  });

  it('is refused over HTTP with 422 naming it and the known ones', async () => {
    const listener = await oz.listen();
    const res = await fetch(`${listener.url}/_oz/stubs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        operationId: 'getCompanyItem',
        match: { path: { item: 'itm_1' } },
        answer: { status: 404, body: { error: { code: 'item_not_found', message: 'x' } } },
      }),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('invalid_params');
    expect(body.error.message).toMatch(/match\.path\.item.*campus, id/);
  });
});
