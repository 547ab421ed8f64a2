/**
 * The admin token never appears in what the server shows of a request, wherever the request carries it (a header,
 * a Basic credential, a JSON body, a path segment, a query value; as written, URL- or JSON-escaped): the journal
 * in process and over HTTP, their HAR, the live feed `/_oz/events`, the error it answers, and `oz-mock --log`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOzServer, OzMockError, type OzListener, type OzServer } from '../../../src/testing/index.js';
import { startOzMock, waitForOutput } from './spawnOzMock.js';

const TOKEN = 'ozadm_NoWhereNoWhereNoWhereNoWhere1234';
// The token's secret part: what must not be readable anywhere, in any spelling.
const SECRET = TOKEN.slice(8);
const percentAll = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
const jsonAll = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/**
 * Whether a text holds the token, read with every `%XX` and `\uXXXX` escape decoded (a JSON text's `\\u` too) and
 * every `Basic` credential's base64.
 */
function holdsToken(text: string): boolean {
  const decoded = text
    .replace(/Basic ([A-Za-z0-9+/=]+)/g, (whole: string, base64: string) => {
      try {
        return atob(base64);
      } catch {
        return whole;
      }
    })
    .replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .replace(/\\+u([0-9A-Fa-f]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return decoded.includes(SECRET);
}

interface Carrier {
  readonly what: string;
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

// Each way a request may carry the token to the API (a request with the admin token as its key is refused: routes.test.ts).
const CARRIERS: readonly Carrier[] = [
  { what: 'a header', method: 'GET', path: '/v1/tools', headers: { 'x-note': `token ${TOKEN}` } },
  { what: 'a header, URL-escaped', method: 'GET', path: '/v1/tools', headers: { 'x-note': encodeURIComponent(TOKEN).replace('_', '%5F') } },
  { what: 'a Basic credential', method: 'GET', path: '/v1/tools', headers: { 'x-upstream-authorization': `Basic ${btoa(`admin:${TOKEN}`)}` } },
  { what: 'a JSON body', method: 'POST', path: '/v1/tools/echo/execute', body: JSON.stringify({ text: TOKEN }) },
  { what: 'a JSON body, \\u-escaped', method: 'POST', path: '/v1/tools/echo/execute', body: `{"text":"${jsonAll(TOKEN)}"}` },
  { what: 'a path segment', method: 'GET', path: `/v1/tools/${TOKEN}` },
  { what: 'a path segment, URL-escaped', method: 'GET', path: `/v1/tools/${TOKEN.replace('_', '%5F')}` },
  { what: 'an unknown route', method: 'GET', path: `/v1/nothing/${TOKEN}` },
  { what: 'a query value', method: 'GET', path: `/v1/tools?token=${TOKEN}` },
  { what: 'a query value, every character escaped', method: 'GET', path: `/v1/tools?token=${percentAll(TOKEN)}` },
];

let server: OzServer;
let listener: OzListener;

beforeAll(async () => {
  server = createOzServer({ adminToken: TOKEN, clock: { start: '2026-11-28T10:00:00Z', frozen: true } });
  listener = await server.listen();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function send(carrier: Carrier): Promise<Response> {
  return fetch(`${listener.url}${carrier.path}`, {
    method: carrier.method,
    headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json', ...carrier.headers },
    body: carrier.body ?? null,
  });
}

async function controlText(path: string): Promise<string> {
  const res = await fetch(`${listener.url}/_oz${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  return res.text();
}

/** Opens `/_oz/events` and gathers its text until `entries` entry events came. */
async function feedText(entries: number, whileOpen: () => Promise<void>): Promise<string> {
  const res = await fetch(`${listener.url}/_oz/events`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!text.includes('event: ready')) text += (await reader.read()).value ?? '';
  await whileOpen();
  while ((text.match(/^event: entry$/gm) ?? []).length < entries) text += (await reader.read()).value ?? '';
  await reader.cancel();
  return text;
}

describe('the admin token in a request, wherever it is', () => {
  it('the oracle sees every spelling the carriers use', () => {
    for (const carrier of CARRIERS) {
      const basic = carrier.headers?.['x-upstream-authorization'];
      expect(holdsToken(JSON.stringify(carrier)) || (basic !== undefined && atob(basic.slice(6)).includes(TOKEN))).toBe(true);
    }
  });

  it.each(CARRIERS)('$what: never in an error, the journal (in process, over HTTP, as HAR) or the live feed', async (carrier) => {
    let answer = { status: 0, text: '' };
    const feed = await feedText(1, async () => {
      const res = await send(carrier);
      answer = { status: res.status, text: JSON.stringify([...res.headers]) + (await res.text()) };
    });
    const entries = server.journal.entries;
    expect(entries).toHaveLength(1);
    // A success may hold the caller's own data (echo answers what it was sent); an error never quotes the token.
    if (answer.status >= 400) expect(holdsToken(answer.text)).toBe(false);
    // An entry's headers are a getter: listed field by field.
    expect(holdsToken(JSON.stringify(entries.map((e) => [e.path, e.query, e.headers, e.body])))).toBe(false);
    expect(holdsToken(JSON.stringify(server.journal.toHAR()))).toBe(false);
    expect(holdsToken(await controlText('/journal'))).toBe(false);
    expect(holdsToken(await controlText('/journal?format=har'))).toBe(false);
    expect(feed).toMatch(/"requestId"/);
    expect(holdsToken(feed)).toBe(false);
  });

  it('shows where the token was: ozadm_… in its place, the rest of the request as sent', async () => {
    await send(CARRIERS.find((c) => c.what === 'a path segment')!);
    await send(CARRIERS.find((c) => c.what === 'a query value')!);
    await send(CARRIERS.find((c) => c.what === 'a JSON body')!);
    await send(CARRIERS.find((c) => c.what === 'a Basic credential')!);
    const [path, query, body, basic] = server.journal.entries;
    expect(path!.path).toBe('/v1/tools/ozadm_…');
    expect(query!.query).toBe('token=ozadm_…');
    expect(body!.body).toBe('{"text":"ozadm_…"}');
    expect(body!.bodyLength).toBe(JSON.stringify({ text: TOKEN }).length);
    expect(basic!.headers['x-upstream-authorization']).toBe('Basic ozadm_…');
    expect(basic!.headers.authorization).toBe(`Bearer ${server.apiKey}`);
  });

  it('the route still sees the path as sent: a tool named like a token is looked up by its own name', async () => {
    const res = await send(CARRIERS.find((c) => c.what === 'a path segment')!);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('ozadm_…');
  });
});

describe('the admin token in an error', () => {
  it("a control-plane route's error names the path without the token", async () => {
    for (const path of [`/_oz/${TOKEN}`, `/_oz/${TOKEN.replace('_', '%5F')}`, `/_oz/sessions/${TOKEN}/journal`]) {
      const res = await fetch(`${listener.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      const text = await res.text();
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(text).toContain('ozadm_…');
      expect(holdsToken(text)).toBe(false);
    }
  });

  it('an OzMockError a handler throws carries no token in its message', () => {
    const error = new OzMockError(409, 'conflict', `the token ${TOKEN} and ${encodeURIComponent(TOKEN).replace('_', '%5F')}`);
    expect(error.message).toBe('the token ozadm_… and ozadm_…');
  });
});

describe('oz-mock --log', () => {
  it('prints the path of a request carrying the admin token with the token redacted', async () => {
    const { mock, line } = await startOzMock(['--log', '--admin-token', TOKEN]);
    try {
      for (const path of [`/v1/tools/${TOKEN}`, `/v1/tools/${TOKEN.replace('_', '%5F')}`, `/v1/tools?token=${TOKEN}`]) {
        await (await fetch(`${line.url}${path}`, { headers: { authorization: `Bearer ${line.apiKey}` } })).text();
      }
      await waitForOutput(mock, /(GET \/v1\/tools\S* \d+.*\n){3}/);
      const logged = mock.output().slice(mock.output().indexOf('GET /v1/tools'));
      expect(logged).toMatch(/^GET \/v1\/tools\/ozadm_… 404 getTool$/m);
      expect(logged.match(/^GET \/v1\/tools\/ozadm_… /gm)).toHaveLength(2);
      expect(holdsToken(logged)).toBe(false);
    } finally {
      await mock.stop();
    }
  });
});
