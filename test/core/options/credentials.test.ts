// `apiKey` as a function (sync or async): asked for every call, asked once more after a 401 (the call retried once
// with the new key, x-trace-id kept), bounded by the attempt timeout and the signal; key rotation with one client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Oz, OzAbortError, OzTimeoutError, OzUsageError, UnauthorizedError, type ClientOptions } from '../../../src/index.js';
import type { OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { envelope, KEY, recordingLogger, rejectionOf } from '../support/clients.js';
import { ScriptedServer } from '../support/scriptedServer.js';

const scripted = ScriptedServer.forSuite();
const NEW_KEY = 'ozk_NewKey0123456789abcdefghijklmnopq';
const client = (options: ClientOptions) => new Oz({ baseURL: scripted.url, logLevel: 'off', retry: { initialDelayMs: 1, maxDelayMs: 5 }, ...options });
const unauthorized = { status: 401, headers: { 'x-error-code': 'unauthorized' }, body: { error: { code: 'unauthorized', message: 'This key was revoked.' } } };

describe('a key provider against the scripted server', () => {
  it('is asked for every call, sync or async, and its key is sent', async () => {
    scripted.fallback = () => ({ body: envelope('ok') });
    const keys = [KEY, NEW_KEY];
    let asked = 0;
    const oz = client({ apiKey: () => keys[asked++ % 2]! });
    await oz.tools.execute('echo', { text: 'a' });
    await oz.tools.execute('echo', { text: 'b' });
    await client({ apiKey: async () => NEW_KEY }).tools.execute('echo', { text: 'c' });
    expect(scripted.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${NEW_KEY}`, `Bearer ${NEW_KEY}`]);
    expect(asked).toBe(2);
  });

  it('after a 401 is asked once more, and the call is retried once with the new key and the same x-trace-id', async () => {
    let current = KEY;
    let asked = 0;
    // The key is rotated while the first request is in flight; the old one answers 401.
    scripted.answer(() => ((current = NEW_KEY), unauthorized), { body: envelope('with the new key') });
    const oz = client({ apiKey: () => (asked++, current) });
    expect((await oz.tools.execute('echo', { text: 'x' })).content).toBe('with the new key');
    const [first, second] = scripted.requests;
    expect([first!.headers.authorization, second!.headers.authorization]).toEqual([`Bearer ${KEY}`, `Bearer ${NEW_KEY}`]);
    expect(second!.headers['x-trace-id']).toBe(first!.headers['x-trace-id']);
    expect(second!.headers['x-oz-retry-count']).toBe('1');
    expect(asked).toBe(2);
  });

  it('only once: a second 401 throws; the same key again, or a fixed key, is not retried', async () => {
    scripted.fallback = () => unauthorized;
    let n = 0;
    expect(await rejectionOf(client({ apiKey: () => `${KEY}${n++}` }).tools.get('echo'))).toBeInstanceOf(UnauthorizedError);
    expect(scripted.requests).toHaveLength(2);
    scripted.reset();
    scripted.fallback = () => unauthorized;
    expect(await rejectionOf(client({ apiKey: () => KEY }).tools.get('echo'))).toBeInstanceOf(UnauthorizedError);
    expect(await rejectionOf(client({ apiKey: KEY }).tools.get('echo'))).toBeInstanceOf(UnauthorizedError);
    expect(scripted.requests).toHaveLength(2);
  });

  it('a per-call apiKey may be a provider too', async () => {
    scripted.answer(unauthorized, { body: envelope('ok') });
    const keys = [KEY, NEW_KEY];
    await client({ apiKey: 'ozk_unused' }).tools.get('echo', { apiKey: () => keys.shift()! });
    expect(scripted.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${NEW_KEY}`]);
  });

  it('bad providers: a non-string, an empty key, a throw, a rejection give OzUsageError; nothing is sent', async () => {
    const cases: [ClientOptions['apiKey'], string][] = [
      [() => 42 as never, 'The apiKey function gave number; it must give the key (ozk_...) as a non-empty string.'],
      [async () => '', 'The apiKey function gave an empty string; it must give the key (ozk_...) as a non-empty string.'],
      [
        () => {
          throw new Error('vault sealed');
        },
        'The apiKey function failed: vault sealed',
      ],
      [() => Promise.reject(new Error('vault unreachable')), 'The apiKey function failed: vault unreachable'],
    ];
    for (const [apiKey, message] of cases) {
      const error = await rejectionOf(client({ apiKey }).tools.get('echo'));
      expect(error).toBeInstanceOf(OzUsageError);
      expect((error as Error).message).toBe(message);
    }
    expect(scripted.requests).toHaveLength(0);
  });

  it('a provider that never settles is bounded by the attempt timeout and by the signal', async () => {
    const never = () => new Promise<string>(() => undefined);
    const timedOut = await rejectionOf(client({ apiKey: never }).tools.get('echo', { timeout: 20 }));
    expect(timedOut).toBeInstanceOf(OzTimeoutError);
    expect((timedOut as Error).message).toBe('The apiKey function did not settle within 20 ms (the attempt timeout).');
    const controller = new AbortController();
    const pending = client({ apiKey: never }).tools.get('echo', { signal: controller.signal });
    controller.abort();
    expect(await rejectionOf(pending)).toBeInstanceOf(OzAbortError);
    expect(scripted.requests).toHaveLength(0);
  });

  it("a provider's keys never reach a log line or an error", async () => {
    scripted.fallback = () => ({ ...unauthorized, body: { error: { code: 'unauthorized', message: `bad key ${NEW_KEY}` } } });
    const logger = recordingLogger();
    const error = await rejectionOf(client({ apiKey: () => NEW_KEY, logger, logLevel: 'debug' }).tools.get('echo'));
    expect((error as Error).message).not.toContain(NEW_KEY);
    expect(JSON.stringify(logger.lines)).not.toContain(NEW_KEY);
  });

  it('withOptions() keeps the provider, or takes the new key given', async () => {
    scripted.fallback = () => ({ body: envelope('ok') });
    let asked = 0;
    const oz = client({ apiKey: () => (asked++, KEY) });
    await oz.withOptions({ timeout: 5000 }).tools.get('echo');
    await oz.withOptions({ apiKey: NEW_KEY }).tools.get('echo');
    expect(asked).toBe(1);
    expect(scripted.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${NEW_KEY}`]);
  });
});

describe('key rotation with one client and a provider, against the embedded server', () => {
  let server: OzServer;
  beforeAll(() => {
    server = createTestServer();
  });
  afterAll(() => server.close());

  it("follows the specification's procedure (create, switch, confirm with whoami, revoke) and loses no call", async () => {
    const store = { key: server.apiKey }; // where the application reads its key (a secret store)
    const oz = new Oz({ baseURL: server.url, apiKey: () => store.key, fetch: server.fetch, logLevel: 'off' });
    const results: string[] = [];
    const call = async (text: string) => results.push((await oz.tools.execute('echo', { text })).content);

    await call('before');
    const created = server.addKey({ account: 'demo', name: 'rotated', expiresInDays: 30 }); // 1. create
    await call('created');
    store.key = created.key; // 2. switch
    expect((await oz.whoami()).key_label).toBe('rotated'); // 3. confirm
    server.revokeKey(server.apiKey); // 4. revoke the old key
    await call('revoked');
    await server.clock.advance(2 * 60_000 + 1); // the key cache lets go of the old key
    await call('after');
    expect(results).toEqual(['before', 'created', 'revoked', 'after']);
    expect(
      server.journal
        .filter('executeTool')
        .slice(-4)
        .map((e) => e.status),
    ).toEqual([200, 200, 200, 200]);
  });

  it('a call sent with the old key while it was revoked is retried with the new one: the 401 loses nothing', async () => {
    const old = server.addKey({ account: 'demo', name: 'old', expiresInDays: 30 });
    const store = { key: old.key };
    // The request with the old key is held in the network while the rotation finishes (the server checks a key
    // before any fault, so the hold is the network's, in front of the server).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let sent = 0;
    const network: typeof server.fetch = async (input, init) => {
      if (sent++ === 0) await held;
      return server.fetch(input, init);
    };
    const oz = new Oz({ baseURL: server.url, apiKey: () => store.key, fetch: network, logLevel: 'off' });
    const pending = oz.tools.execute('echo', { text: 'in flight' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    store.key = server.addKey({ account: 'demo', name: 'new', expiresInDays: 30 }).key;
    server.revokeKey(old.key);
    await server.clock.advance(3 * 60_000); // past the key cache's two minutes: the held request meets a revoked key
    release();
    expect((await pending).content).toBe('in flight');
    const [first, second] = server.journal.filter('executeTool').slice(-2);
    expect([first!.status, second!.status]).toEqual([401, 200]);
    expect(second!.headers['x-trace-id']).toBe(first!.headers['x-trace-id']);
  });
});
