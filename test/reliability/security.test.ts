/**
 * Security: every operation of openapi.json with every kind of key and both auth headers answers what the
 * spec says; bodies over the spec's limits are refused with 422 before anything is written; the key stays out
 * of logs and errors on the recovery paths (lost answers, cut streams) that test/core/errors/keyLeak.test.ts does not
 * drive.
 */
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import openapi from '../../openapi.json' with { type: 'json' };
import { OPERATIONS } from '../../src/generated/operations.js';
import { Oz, OzError, OzStreamInterruptedError } from '../../src/index.js';
import type { OzServer } from '../../src/testing/index.js';
import { createTestServer } from '../support/ozServer.js';

let server: OzServer;
afterEach(() => server?.close());

type KeyKind = 'platform' | 'models legacy' | 'proxy legacy' | 'none' | 'revoked' | 'expired';
const KEY_KINDS: readonly KeyKind[] = ['platform', 'models legacy', 'proxy legacy', 'none', 'revoked', 'expired'];
const DAY = 86_400_000;

/** openapi.json's own security requirement of each operation (the document's default where it gives none). */
function securityOf(operationId: string): string[] {
  const doc = openapi as unknown as {
    security?: Record<string, unknown>[];
    paths: Record<string, Record<string, { operationId?: string; security?: Record<string, unknown>[] }>>;
  };
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      if (op.operationId === operationId) return (op.security ?? doc.security ?? []).flatMap((s) => Object.keys(s));
    }
  }
  throw new Error(`no operation ${operationId} in openapi.json`);
}

/** The spec's answer (Authentication rules 1 to 6 and the header table): is this request let in? */
function admitted(op: (typeof OPERATIONS)[keyof typeof OPERATIONS], kind: KeyKind, header: 'bearer' | 'x-api-key'): boolean {
  const schemes = securityOf(op.id);
  if (schemes.length === 0) return true; // rule 1: /health and /v1/openapi.json need no key
  if (kind === 'none' || kind === 'revoked' || kind === 'expired') return false;
  if (header === 'x-api-key' && !schemes.includes('apiKeyHeader')) return false; // models, companies, proxy: bearer only
  if (kind === 'platform') return true; // rules 2 and 5
  // Rules 3 and 4: a legacy key opens only its own plane, by bearer (X-API-Key is for ozk_ keys only).
  if (header === 'x-api-key') return false;
  return (kind === 'models legacy' && op.plane === 'models') || (kind === 'proxy legacy' && op.plane === 'proxy');
}

describe('fences and planes on every operation of openapi.json', () => {
  it('each key kind with each auth header gets the spec’s answer: 401 unauthorized exactly where the spec says', async () => {
    server = createTestServer({ clock: { frozen: true }, keyCacheMs: 1000 });
    const revoked = server.addKey({ account: 'demo', name: 'revoked' });
    const expired = server.addKey({ account: 'demo', name: 'expiring', expiresInDays: 7 });
    server.revokeKey(revoked.id);
    await server.clock.advance(7 * DAY);
    const keys: Record<KeyKind, string | null> = {
      platform: server.apiKey,
      'models legacy': server.keys.modelsKey,
      'proxy legacy': server.keys.proxyKey,
      none: null,
      revoked: revoked.key,
      expired: expired.key,
    };
    expect(keys['models legacy']).toMatch(/^sk-mdl-/);
    expect(keys['proxy legacy']).toMatch(/^sk-prx-/);

    const wrong: string[] = [];
    let checked = 0;
    for (const op of Object.values(OPERATIONS)) {
      const path = op.path.replace(/\{[^}]+\}/g, 'x');
      for (const kind of KEY_KINDS) {
        for (const header of ['bearer', 'x-api-key'] as const) {
          const headers: Record<string, string> = { accept: op.id === 'mcpRequest' ? 'application/json, text/event-stream' : 'application/json' };
          const key = keys[kind];
          if (key !== null) headers[header === 'bearer' ? 'authorization' : 'x-api-key'] = header === 'bearer' ? `Bearer ${key}` : key;
          const hasBody = op.method !== 'GET' && op.method !== 'DELETE';
          if (hasBody) headers['content-type'] = 'application/json';
          const res = await server.fetch(`${server.url}${path}`, { method: op.method, headers, body: hasBody ? '{}' : undefined });
          await res.arrayBuffer();
          checked++;
          const expectIn = admitted(op, kind, header);
          const in_ = res.status !== 401;
          if (expectIn !== in_) wrong.push(`${op.id} ${op.method} ${path} ${kind} by ${header}: ${res.status}, expected ${expectIn ? 'not 401' : '401'}`);
          if (!in_ && res.headers.get('x-error-code') !== 'unauthorized') wrong.push(`${op.id} ${kind} by ${header}: 401 without X-Error-Code unauthorized`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBe(Object.keys(OPERATIONS).length * KEY_KINDS.length * 2);
  });
});

describe('bodies over the spec’s limits', () => {
  const base = { building: 'hq', title: 'T' };
  const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['title of 301 characters', { ...base, title: 'a'.repeat(301) }, { ...base, title: 'a'.repeat(300) }],
    ['body of 65537 characters', { ...base, body: 'b'.repeat(65_537) }, { ...base, body: 'b'.repeat(65_536) }],
    ['tier of 33 characters', { ...base, tier: 't'.repeat(33) }, { ...base, tier: 't'.repeat(32) }],
  ];

  it.each(cases)('%s: 422 invalid_params, nothing written; at the limit it is created', async (_name, over, at) => {
    server = createTestServer();
    const post = (body: Record<string, unknown>) =>
      server.fetch(`${server.url}/v1/companies/acme/items`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const count = async () =>
      (
        (await (await server.fetch(`${server.url}/v1/companies/acme/items?limit=100`, { headers: { authorization: `Bearer ${server.apiKey}` } })).json()) as {
          data: unknown[];
        }
      ).data.length;
    const refused = await post(over);
    expect(refused.status).toBe(422);
    expect(refused.headers.get('x-error-code')).toBe('invalid_params');
    await refused.arrayBuffer();
    expect(await count()).toBe(0);
    // Refused before any work: no execution either.
    expect(
      ((await (await server.fetch(`${server.url}/v1/executions`, { headers: { authorization: `Bearer ${server.apiKey}` } })).json()) as { data: unknown[] })
        .data,
    ).toEqual([]);
    const created = await post(at);
    expect(created.status).toBe(201);
    await created.arrayBuffer();
    expect(await count()).toBe(1);
  });
});

describe('the key stays out of logs and errors on the recovery paths', () => {
  it('lost answers, retries, cut streams and waits at debug level over real HTTP', async () => {
    server = createTestServer();
    const listener = await server.listen({ port: 0, mcpPort: 0, host: '127.0.0.1' });
    try {
      const lines: string[] = [];
      const at =
        (level: string) =>
        (message: string, ...rest: unknown[]) =>
          void lines.push(`${level} ${message} ${rest.map((r) => inspect(r, { depth: Infinity })).join(' ')}`);
      const logger = { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
      const client = new Oz({ baseURL: listener.url, apiKey: server.apiKey, logger, logLevel: 'debug', maxRetries: 1 });
      const errors: unknown[] = [];

      server.faults.add({ operationId: 'executeTool', type: 'lose' });
      await client.tools.execute('echo', { text: 'lost once' }, { idempotencyKey: 'leak-lost' });
      server.faults.add({ operationId: 'executeTool', type: 'error', status: 500, code: 'internal_error', retryAfter: 0, times: 2 });
      errors.push(await client.tools.execute('echo', { text: 'x' }).catch((e: unknown) => e));
      server.faults.add({ operationId: 'executeAgent', type: 'cut', afterEvents: 2 });
      const stream = await client.agents.execute({ agent: 'writer', user_request: 'one two three four', stream: true });
      const cut = await stream.finalResult().catch((e: unknown) => e);
      errors.push(cut);
      expect(cut).toBeInstanceOf(OzStreamInterruptedError);
      await client.executions.wait((cut as OzStreamInterruptedError).executionId!, { interval: 10 });
      errors.push(await client.executions.wait('exe_missing', { interval: 10 }).catch((e: unknown) => e));
      errors.push(await client.tools.execute('echo', { text: 'x' }, { apiKey: 'ozk_NotAKeyOfThisServer0123456789' }).catch((e: unknown) => e));

      expect(errors.every((e) => e instanceof OzError)).toBe(true);
      expect(lines.some((l) => l.startsWith('debug'))).toBe(true);
      expect(lines.some((l) => l.startsWith('warn') && l.includes('lost'))).toBe(true);
      const texts = [
        ...lines,
        ...errors.flatMap((e) => [String(e), (e as Error).stack ?? '', inspect(e, { depth: Infinity, showHidden: true }), JSON.stringify(e)]),
        inspect(client, { depth: Infinity }),
        JSON.stringify(client),
        inspect(stream, { depth: 4 }),
      ];
      for (const text of texts) {
        expect(text).not.toContain(server.apiKey);
        expect(text).not.toContain('ozk_NotAKeyOfThisServer0123456789');
      }
    } finally {
      await listener.close();
    }
  });
});
