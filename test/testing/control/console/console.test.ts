/**
 * The console's routes: `/_oz/ui` (page, script, style sheet: open, holding no data, under a strict
 * Content-Security-Policy) and the live feed `GET /_oz/events` (the admin token, the Host and Origin rules of the
 * control plane, a session's traffic alone, and a bound for a reader that stops reading).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { createOzServer, type OzListener, type OzServer } from '../../../../src/testing/index.js';
import { FEED_BUFFER_LIMIT } from '../../../../src/testing/control/eventFeed.js';

const TOKEN = 'ozadm_ConsConsConsConsConsConsConsCons';
const ADMIN = { authorization: `Bearer ${TOKEN}` };
let server: OzServer;
let listener: OzListener;

beforeAll(async () => {
  server = createOzServer({ adminToken: TOKEN, clock: { start: '2026-11-26T10:00:00Z', frozen: true } });
  listener = await server.listen();
});
afterAll(() => server.close());

/** A GET with a Host header of our choosing (fetch sets its own). */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const { port } = new URL(listener.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res
        .setEncoding('utf8')
        .on('data', (c: string) => (body += c))
        .on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject).end();
  });
}

/** Reads a feed until `until` holds of its text (or it ends). */
async function readFeed(body: ReadableStream<Uint8Array>, until: (text: string) => boolean): Promise<{ text: string; ended: boolean }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    if (until(text)) {
      await reader.cancel();
      return { text, ended: false };
    }
    const { value, done } = await reader.read();
    if (done) return { text, ended: true };
    text += decoder.decode(value, { stream: true });
  }
}

const entries = (text: string) =>
  [...text.matchAll(/^event: entry\ndata: (.*)$/gm)].map((m) => JSON.parse(m[1]!) as { path: string; status: number; account: string | null });

describe('the console page', () => {
  it('serves page, script and style without a token, under a strict CSP, with no data and no external URL', async () => {
    const page = await fetch(`${listener.url}/_oz/ui`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/unsafe|\*|https?:/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await page.text();
    expect(html).toContain('<script src="/_oz/ui/console.js" defer></script>');
    expect(html).not.toMatch(/https?:\/\/|<script>|style=/);
    expect(html).not.toContain(server.apiKey);
    const script = await fetch(`${listener.url}/_oz/ui/console.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const js = await script.text();
    expect(js).toContain('/_oz');
    expect(js).not.toMatch(/https?:\/\/[a-z]/i);
    const style = await fetch(`${listener.url}/_oz/ui/console.css`);
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await style.text()).not.toMatch(/https?:|@import|url\(/);
  });

  it('answers a foreign Host with 403 forbidden_host, the page and the feed alike', async () => {
    const { port } = new URL(listener.url);
    for (const path of ['/_oz/ui', '/_oz/ui/console.js', '/_oz/events']) {
      const res = await rawGet(path, { host: `evil.example:${port}`, ...ADMIN });
      expect(res.status, path).toBe(403);
      expect(JSON.parse(res.body).error.code).toBe('forbidden_host');
    }
    expect((await rawGet('/_oz/ui', { host: `localhost:${port}` })).status).toBe(200);
  });
});

describe('the live feed GET /_oz/events', () => {
  it('needs the admin token: 401 without it, with a wrong one, or with a platform key', async () => {
    for (const headers of <Array<Record<string, string>>>[
      {},
      { authorization: 'Bearer ozadm_WrongWrongWrongWrongWrongWrongWron' },
      { authorization: `Bearer ${server.apiKey}` },
    ]) {
      const res = await fetch(`${listener.url}/_oz/events`, { headers });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    }
  });

  it('sends no CORS grant to another origin, and its preflight is refused', async () => {
    const res = await fetch(`${listener.url}/_oz/events`, { headers: { ...ADMIN, origin: 'https://evil.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    await res.body?.cancel();
    const preflight = await fetch(`${listener.url}/_oz/events`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.status).toBe(401);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('sends ready, then each answered request as an entry, with keys redacted', async () => {
    const res = await fetch(`${listener.url}/_oz/events`, { headers: ADMIN });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reading = readFeed(res.body!, (text) => entries(text).some((e) => e.path === '/v1/tools/nope'));
    await fetch(`${listener.url}/v1/tools`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    await fetch(`${listener.url}/v1/tools/nope`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    const { text } = await reading;
    expect(text.startsWith('event: ready\n')).toBe(true);
    expect(entries(text).map((e) => [e.path, e.status, e.account])).toEqual([
      ['/v1/tools', 200, 'demo'],
      ['/v1/tools/nope', 404, 'demo'],
    ]);
    expect(text).not.toContain(server.apiKey);
  });

  it('in a session, shows that session’s traffic alone', async () => {
    const session = server.session();
    try {
      const res = await fetch(`${listener.url}/_oz/sessions/${session.id}/events`, { headers: ADMIN });
      const reading = readFeed(res.body!, (text) => entries(text).some((e) => e.path === '/v1/agents'));
      await fetch(`${listener.url}/v1/workflows`, { headers: { authorization: `Bearer ${server.apiKey}` } });
      await fetch(`${listener.url}/v1/agents`, { headers: { authorization: `Bearer ${session.apiKey}` } });
      const { text } = await reading;
      expect(entries(text).map((e) => e.path)).toEqual(['/v1/agents']);
    } finally {
      await session.close();
    }
    const gone = await fetch(`${listener.url}/_oz/sessions/${session.id}/events`, { headers: ADMIN });
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { error: { code: string } }).error.code).toBe('session_not_found');
  });

  it('a reader that stops reading costs a bounded buffer: the feed sends overflow and ends', async () => {
    const quiet = createOzServer({ adminToken: TOKEN });
    try {
      const res = await quiet.fetch(`${quiet.url}/_oz/events`, { headers: ADMIN });
      const big = 'x'.repeat(16 * 1024);
      // Nobody reads the feed meanwhile: far more than the bound goes to it.
      const sent = Math.ceil((8 * FEED_BUFFER_LIMIT) / big.length);
      for (let i = 0; i < sent; i++) {
        await quiet.fetch(`${quiet.url}/v1/tools/echo/execute`, {
          method: 'POST',
          headers: { authorization: `Bearer ${quiet.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ text: big }),
        });
      }
      const { text, ended } = await readFeed(res.body!, () => false);
      expect(ended).toBe(true);
      expect(text).toMatch(/event: overflow\ndata: .*\n\n$/);
      expect(entries(text).length).toBeLessThan(sent);
      expect(text.length).toBeLessThan(4 * FEED_BUFFER_LIMIT);
    } finally {
      await quiet.close();
    }
  });
});
