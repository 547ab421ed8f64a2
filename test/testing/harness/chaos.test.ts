/**
 * Chaos rules in process: the first rule that matches a request draws from the seeded generator and, under its
 * probability, puts a fault of the fault machinery on it; the same seed and requests give the same faults.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ChaosDocument, OzServer } from '../../../src/testing/index.js';
import { retryableDeclaredErrors } from '../../../src/testing/contract/declaredErrors.js';
import { createTestServer } from '../../support/ozServer.js';
import { call } from '../support/serverCall.js';
import { chaosSequence, outcomesOf, SEQUENCE_DOCUMENT } from './chaosSequence.js';

let server: OzServer;
afterEach(() => server?.close());

const echo = (text = 'x') => call(server, 'POST', '/v1/tools/echo/execute', { body: { text } });
const fired = () => server.journal.entries.map((e) => e.chaos);

describe('chaos in process (server.fetch)', () => {
  it('the same seed and the same requests give the same faults, request by request; another seed gives others', async () => {
    server = createTestServer();
    server.chaos.set(SEQUENCE_DOCUMENT);
    const first = await chaosSequence((req) => server.fetch(req), server.url, server.apiKey);
    const firstJournal = outcomesOf(server);
    server.reset();
    server.chaos.set(SEQUENCE_DOCUMENT);
    const second = await chaosSequence((req) => server.fetch(req), server.url, server.apiKey);
    expect(second).toEqual(first);
    expect(outcomesOf(server)).toEqual(firstJournal);
    // The sequence really met every kind of fault of the document, and requests that got none.
    for (const kind of ['error', 'drop', 'lose', 'delay']) expect(firstJournal.filter((o) => o.fault === kind).length, kind).toBeGreaterThan(0);
    expect(firstJournal.filter((o) => o.chaos === null).length).toBeGreaterThan(0);
    server.reset();
    server.chaos.set({ ...SEQUENCE_DOCUMENT, seed: SEQUENCE_DOCUMENT.seed + 1 });
    expect(await chaosSequence((req) => server.fetch(req), server.url, server.apiKey)).not.toEqual(first);
  });

  it('probability 0 fires nothing, 1 fires on every matching request', async () => {
    server = createTestServer();
    server.chaos.set({ seed: 1, rules: [{ match: { operationId: 'executeTool' }, probability: 0, fault: { type: 'error', code: 'internal_error' } }] });
    for (let i = 0; i < 30; i++) expect((await echo()).status).toBe(200);
    expect(fired().every((c) => c === null)).toBe(true);
    server.chaos.set({
      seed: 1,
      rules: [{ match: { operationId: 'executeTool' }, probability: 1, fault: { type: 'error', code: 'internal_error', retryAfter: 0 } }],
    });
    for (let i = 0; i < 30; i++) expect((await echo()).status).toBe(500);
    expect((await call(server, 'GET', '/v1/tools')).status).toBe(200);
    expect(
      server.journal
        .filter('executeTool')
        .slice(-30)
        .every((e) => e.fault === 'error' && e.chaos?.rule === 0),
    ).toBe(true);
  });

  it("journal: a fired rule's index and its draw (under the probability); null when no rule fired", async () => {
    server = createTestServer();
    server.chaos.set({
      seed: 5,
      rules: [
        { match: { method: 'GET' }, probability: 0, fault: { type: 'drop' } },
        { match: { operationId: 'executeTool', body: { text: 'hit' } }, probability: 0.5, fault: { type: 'error', code: 'internal_error', retryAfter: 0 } },
      ],
    });
    for (let i = 0; i < 20; i++) await echo(i % 2 === 0 ? 'hit' : 'miss');
    const entries = server.journal.filter('executeTool');
    for (const [i, e] of entries.entries()) {
      if (i % 2 === 1) expect(e.chaos).toBeNull();
      if (e.chaos === null) expect(e.fault).toBeNull();
      else {
        expect(e.chaos.rule).toBe(1);
        expect(e.chaos.draw).toBeGreaterThanOrEqual(0);
        expect(e.chaos.draw).toBeLessThan(0.5);
        expect(e.status).toBe(500);
      }
    }
    expect(entries.filter((e) => e.chaos !== null).length).toBeGreaterThan(0);
    expect(entries.filter((e, i) => i % 2 === 0 && e.chaos === null).length).toBeGreaterThan(0);
  });

  it('only the first rule that matches draws: a later rule that would fire is not tried', async () => {
    server = createTestServer();
    server.chaos.set({
      seed: 3,
      rules: [
        { match: { operationId: 'executeTool' }, probability: 0, fault: { type: 'drop' } },
        { probability: 1, fault: { type: 'error', code: 'internal_error' } },
      ],
    });
    for (let i = 0; i < 5; i++) expect((await echo()).status).toBe(200);
    expect((await call(server, 'GET', '/v1/tools')).status).toBe(500);
    expect(server.journal.last('listTools')?.chaos).toMatchObject({ rule: 1 });
  });

  it('a fault of server.faults goes first: no rule draws for the request it takes', async () => {
    server = createTestServer();
    server.chaos.set({ seed: 3, rules: [{ probability: 1, fault: { type: 'error', code: 'internal_error' } }] });
    server.faults.add({ operationId: 'executeTool', type: 'error', status: 429, code: 'rate_limited', retryAfter: 0 });
    expect((await echo()).status).toBe(429);
    expect(server.journal.last('executeTool')).toMatchObject({ fault: 'error', chaos: null });
    expect((await echo()).status).toBe(500);
    expect(server.journal.last('executeTool')?.chaos).toMatchObject({ rule: 0 });
  });

  it('matches on path, path pattern, method, account and body', async () => {
    server = createTestServer();
    const fires = async (doc: ChaosDocument, send: () => Promise<Response>) => {
      server.chaos.set(doc);
      return (await send()).status === 500;
    };
    const rule = (match: NonNullable<ChaosDocument['rules'][number]['match']>): ChaosDocument => ({
      seed: 1,
      rules: [{ match, probability: 1, fault: { type: 'error', code: 'internal_error' } }],
    });
    expect(await fires(rule({ path: '/v1/tools' }), () => call(server, 'GET', '/v1/tools'))).toBe(true);
    expect(await fires(rule({ path: '/v1/tools' }), () => call(server, 'GET', '/v1/tools/echo'))).toBe(false);
    expect(await fires(rule({ pathPattern: '^/v1/tools/[a-z]+$' }), () => call(server, 'GET', '/v1/tools/echo'))).toBe(true);
    expect(await fires(rule({ path: /^\/v1\/agents/ }), () => call(server, 'GET', '/v1/tools/echo'))).toBe(false);
    expect(await fires(rule({ method: 'post' }), () => echo())).toBe(true);
    expect(await fires(rule({ method: 'GET' }), () => echo())).toBe(false);
    expect(await fires(rule({ account: 'demo' }), () => echo())).toBe(true);
    expect(await fires(rule({ account: 'other' }), () => echo())).toBe(false);
    expect(await fires(rule({ body: { text: 'a' } }), () => echo('a'))).toBe(true);
    expect(await fires(rule({ body: { text: 'a' } }), () => echo('b'))).toBe(false);
  });
});

describe('what a chaos error answers', () => {
  it('"declared": one of the retryable errors the operation declares, drawn from the generator, with its status', async () => {
    server = createTestServer();
    server.chaos.set({
      seed: 11,
      rules: [{ match: { operationId: 'executeTool' }, probability: 1, fault: { type: 'error', code: 'declared', retryAfter: 0 } }],
    });
    const declared = retryableDeclaredErrors('executeTool');
    expect(declared.map((e) => e.code).sort()).toEqual(['internal_error', 'rate_limited', 'request_timeout', 'timeout']);
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const res = await echo();
      const code = res.headers.get('x-error-code')!;
      expect(declared).toContainEqual({ code, status: res.status });
      seen.add(code);
    }
    expect(seen.size).toBe(declared.length);
  });

  it('"declared" with a status draws among that status; none declared for a named operation is a TypeError', () => {
    server = createTestServer();
    expect(() =>
      server.chaos.set({ seed: 1, rules: [{ match: { operationId: 'getHealth' }, probability: 1, fault: { type: 'error', code: 'declared', status: 500 } }] }),
    ).toThrow(new TypeError('rules[0].fault.code: getHealth declares no retryable error of status 500'));
  });

  it('never a permanent code: 503 not_enabled is declared by createCompanyItem but not drawn', () => {
    expect(retryableDeclaredErrors('createCompanyItem').map((e) => e.code)).not.toContain('not_enabled');
    expect(retryableDeclaredErrors('createCompanyItem').map((e) => e.code)).toContain('upstream_error');
  });

  it('a 429 or 503 without retryAfter sends Retry-After: 1; a given retryAfter is sent; a code gets its own status', async () => {
    server = createTestServer();
    const one = async (fault: ChaosDocument['rules'][number]['fault'], send: () => Promise<Response> = () => echo()) => {
      server.chaos.set({ seed: 1, rules: [{ probability: 1, fault }] });
      const res = await send();
      return [res.status, res.headers.get('x-error-code'), res.headers.get('retry-after')];
    };
    expect(await one({ type: 'error', code: 'rate_limited' })).toEqual([429, 'rate_limited', '1']);
    expect(await one({ type: 'error', code: 'rate_limited', retryAfter: 3 })).toEqual([429, 'rate_limited', '3']);
    expect(
      await one({ type: 'error', code: 'not_enabled' }, () => call(server, 'POST', '/v1/companies/acme/items', { body: { building: 'hq', title: 'T' } })),
    ).toEqual([503, 'not_enabled', '1']);
    expect(await one({ type: 'error', code: 'internal_error' })).toEqual([500, 'internal_error', null]);
    expect(await one({ type: 'error', code: 'upstream_error', status: 503 }, () => call(server, 'GET', '/v1/companies/acme/items'))).toEqual([
      503,
      'upstream_error',
      '1',
    ]);
  });
});

describe('chaos latencies on the server clock', () => {
  /** Whether an echo delayed by the rule's latency has answered after `ms` of the frozen clock. */
  async function answeredAfter(fault: ChaosDocument['rules'][number]['fault'], steps: readonly number[]): Promise<boolean[]> {
    server = createTestServer({ clock: { frozen: true } });
    server.chaos.set({ seed: 9, rules: [{ match: { operationId: 'executeTool' }, probability: 1, fault }] });
    let settled = false;
    const pending = echo().then(() => (settled = true));
    const seen: boolean[] = [];
    for (const ms of steps) {
      await server.clock.advance(ms);
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(settled);
    }
    await server.clock.advance(1e6);
    await pending;
    return seen;
  }

  it('fixed: { ms }', async () => {
    expect(await answeredAfter({ type: 'delay', ms: 1000 }, [999, 1])).toEqual([false, true]);
  });

  it('uniform: between min and max', async () => {
    expect(await answeredAfter({ type: 'delay', uniform: { min: 200, max: 300 } }, [199, 101])).toEqual([false, true]);
  });

  it('lognormal: the median when sigma is 0, never past the cap', async () => {
    expect(await answeredAfter({ type: 'delay', lognormal: { median: 100, sigma: 0, max: 1000 } }, [99, 1])).toEqual([false, true]);
    expect(await answeredAfter({ type: 'delay', lognormal: { median: 5000, sigma: 3, max: 250 } }, [250])).toEqual([true]);
  });
});

describe('dribble: the body in pieces', () => {
  it('as a chaos fault and as a fault: the same bytes, in several pieces', async () => {
    server = createTestServer();
    const plain = await (await call(server, 'GET', '/v1/tools')).text();
    const pieces = async () => {
      const res = await call(server, 'GET', '/v1/tools');
      const reader = res.body!.getReader();
      const chunks: Uint8Array[] = [];
      for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
      return { count: chunks.length, text: Buffer.concat(chunks).toString('utf8') };
    };
    server.chaos.set({ seed: 1, rules: [{ match: { operationId: 'listTools' }, probability: 1, fault: { type: 'dribble', ms: 20 } }] });
    const dribbled = await pieces();
    expect(dribbled.text).toBe(plain);
    expect(dribbled.count).toBe(10);
    expect(server.journal.last('listTools')).toMatchObject({ fault: 'dribble', status: 200, chaos: { rule: 0 } });
    server.chaos.clear();
    server.faults.add({ operationId: 'listTools', type: 'dribble', ms: 20 });
    expect(await pieces()).toEqual(dribbled);
    expect(() => server.faults.add({ type: 'dribble', ms: -1 })).toThrow(new TypeError('A dribble fault needs ms >= 0'));
  });
});

describe('set, get, clear, reset, sessions', () => {
  it('get answers a copy of the document set; clear withdraws it', () => {
    server = createTestServer();
    expect(server.chaos.get()).toBeNull();
    const doc: ChaosDocument = { seed: 2, rules: [{ match: { path: /^\/v1\// }, probability: 0.5, fault: { type: 'lose' } }] };
    server.chaos.set(doc);
    expect(server.chaos.get()).toEqual(doc);
    expect(server.chaos.get()).not.toBe(doc);
    server.chaos.clear();
    expect(server.chaos.get()).toBeNull();
  });

  it('reset() clears the rules; those of the chaos option are set again, their generator back at the seed', async () => {
    const doc: ChaosDocument = {
      seed: 4,
      rules: [{ match: { operationId: 'executeTool' }, probability: 0.5, fault: { type: 'error', code: 'internal_error', retryAfter: 0 } }],
    };
    server = createTestServer({ chaos: doc });
    const statuses = async () => {
      const out: number[] = [];
      for (let i = 0; i < 12; i++) out.push((await echo()).status);
      return out;
    };
    const first = await statuses();
    expect(first).toContain(500);
    server.reset();
    expect(server.chaos.get()).toEqual(doc);
    expect(await statuses()).toEqual(first);
    server.chaos.set({ seed: 1, rules: [{ probability: 1, fault: { type: 'drop' } }] });
    server.reset();
    expect(server.chaos.get()).toEqual(doc);
    const plain = createTestServer();
    plain.chaos.set(doc);
    plain.reset();
    expect(plain.chaos.get()).toBeNull();
    await plain.close();
  });

  it('a bad chaos option throws when the server is made', () => {
    expect(() => createTestServer({ chaos: { seed: 1.5, rules: [] } })).toThrow(new TypeError('seed must be an integer'));
  });

  it("a session's chaos is its own", async () => {
    server = createTestServer();
    const session = server.session();
    session.chaos.set({ seed: 1, rules: [{ probability: 1, fault: { type: 'error', code: 'internal_error' } }] });
    expect((await echo()).status).toBe(200);
    const inSession = await session.fetch(`${server.url}/v1/tools/echo/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.apiKey}`, 'content-type': 'application/json' },
      body: '{"text":"s"}',
    });
    expect(inSession.status).toBe(500);
    expect(server.chaos.get()).toBeNull();
    expect(session.journal.last('executeTool')?.chaos).toMatchObject({ rule: 0 });
    expect(server.journal.last('executeTool')?.chaos).toBeNull();
  });
});

describe('a bad chaos document: a TypeError naming the field, and nothing changes', () => {
  const rule = (over: Record<string, unknown>) => ({ seed: 1, rules: [{ probability: 0.5, fault: { type: 'drop' }, ...over }] });
  const cases: ReadonlyArray<readonly [unknown, string]> = [
    [null, 'A chaos document is an object: { seed, rules }'],
    [{ seed: 1, rules: [], extra: 1 }, 'extra is not a field of a chaos document (known: seed, rules)'],
    [{ rules: [] }, 'seed must be an integer'],
    [{ seed: '1', rules: [] }, 'seed must be an integer'],
    [{ seed: 1 }, 'rules must be a list of rules'],
    [{ seed: 1, rules: [7] }, 'rules[0] must be an object: { match, probability, fault }'],
    [rule({ probability: 1.5 }), 'rules[0].probability must be a number from 0 to 1'],
    [rule({ probability: '0.5' }), 'rules[0].probability must be a number from 0 to 1'],
    [rule({ probability: undefined }), 'rules[0].probability must be a number from 0 to 1'],
    [rule({ weight: 1 }), 'rules[0].weight is not a field of a rule (known: match, probability, fault)'],
    [rule({ fault: undefined }), 'rules[0].fault is required'],
    [rule({ fault: 'drop' }), 'rules[0].fault must be an object: { type, ... }'],
    [rule({ fault: { type: 'explode' } }), 'rules[0].fault.type must be one of: error, delay, drop, cut, lose, dribble'],
    [rule({ fault: { type: 'drop', ms: 1 } }), 'rules[0].fault.ms is not a field of a drop fault (known: type)'],
    [rule({ fault: { type: 'error', code: 'nope' } }), 'rules[0].fault.code must be "declared" or one of openapi.json\'s ErrorCode, not "nope"'],
    [rule({ fault: { type: 'error', code: 'internal_error', status: 200 } }), 'rules[0].fault.status must be an integer from 400 to 599'],
    [rule({ fault: { type: 'error', code: 'internal_error', retryAfter: -1 } }), 'rules[0].fault.retryAfter must be an integer >= 0 (seconds)'],
    [rule({ fault: { type: 'error', code: 'internal_error', message: 1 } }), 'rules[0].fault.message must be a string'],
    [rule({ fault: { type: 'delay' } }), 'rules[0].fault needs one of ms, uniform, lognormal'],
    [rule({ fault: { type: 'delay', ms: 1, uniform: { min: 0, max: 1 } } }), 'rules[0].fault needs one of ms, uniform, lognormal'],
    [rule({ fault: { type: 'delay', ms: -1 } }), 'rules[0].fault.ms must be a number of ms >= 0'],
    [rule({ fault: { type: 'delay', uniform: { min: 5, max: 1 } } }), 'rules[0].fault.uniform.max must be >= min'],
    [rule({ fault: { type: 'delay', uniform: { min: 1 } } }), 'rules[0].fault.uniform.max must be a number of ms >= 0'],
    [rule({ fault: { type: 'delay', lognormal: { median: 0, sigma: 1, max: 10 } } }), 'rules[0].fault.lognormal.median must be a number of ms > 0'],
    [rule({ fault: { type: 'delay', lognormal: { median: 5, sigma: -1, max: 10 } } }), 'rules[0].fault.lognormal.sigma must be a number >= 0'],
    [rule({ fault: { type: 'delay', lognormal: { median: 5, sigma: 1 } } }), 'rules[0].fault.lognormal.max must be a number of ms >= 0'],
    [rule({ fault: { type: 'cut', afterEvents: 1.5 } }), 'rules[0].fault.afterEvents must be an integer >= 0'],
    [rule({ fault: { type: 'dribble' } }), 'rules[0].fault.ms must be a number of ms >= 0'],
    [rule({ match: [] }), 'rules[0].match must be an object: { operationId, method, path, pathPattern, account, body }'],
    [rule({ match: { session: 'ses_1' } }), 'rules[0].match.session is not a field of a match (known: operationId, method, path, pathPattern, account, body)'],
    [rule({ match: { operationId: 'nope' } }), 'rules[0].match.operationId names no operation of openapi.json: nope'],
    [rule({ match: { method: 'GE T' } }), 'rules[0].match.method must be an HTTP method'],
    [rule({ match: { path: 1 } }), 'rules[0].match.path must be a string or a RegExp'],
    [rule({ match: { path: '/v1', pathPattern: '^/v1' } }), 'rules[0].match: give path or pathPattern, not both'],
    [rule({ match: { pathPattern: '(a)\\1' } }), 'rules[0].match.pathPattern is not supported'],
    [rule({ match: { pathPattern: '(' } }), 'rules[0].match.pathPattern is not a regular expression'],
    [rule({ match: { account: 1 } }), 'rules[0].match.account must be a string'],
    [rule({ match: { body: 'x' } }), 'rules[0].match.body must be an object of fields'],
    [
      {
        seed: 1,
        rules: [
          { probability: 0.5, fault: { type: 'drop' } },
          { probability: 2, fault: { type: 'drop' } },
        ],
      },
      'rules[1].probability must be a number from 0 to 1',
    ],
  ];

  it.each(cases)('%j: %s', async (doc, message) => {
    server = createTestServer();
    const kept: ChaosDocument = { seed: 8, rules: [{ probability: 0, fault: { type: 'drop' } }] };
    server.chaos.set(kept);
    let error: unknown;
    try {
      server.chaos.set(doc as ChaosDocument);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message.startsWith(message)).toBe(true);
    expect(server.chaos.get()).toEqual(kept);
    expect((await echo()).status).toBe(200);
  });
});
