/** oz-mock's control-plane flags: fixture files, the state file, the clock, the rate limit, the admin token. */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { connectOzMock } from '../../../src/testing/index.js';
import { spawnOzMock, startOzMock, waitForOutput, type SpawnedOzMock } from './spawnOzMock.js';

const dir = mkdtempSync(join(tmpdir(), 'oz-mock-cli-'));
const running: SpawnedOzMock[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((m) => m.stop()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function start(args: string[], env: Record<string, string> = {}) {
  const started = await startOzMock(args, env);
  running.push(started.mock);
  return started;
}

function failing(args: string[]) {
  const m = spawnOzMock(args);
  running.push(m);
  return m;
}

describe('oz-mock --help', () => {
  it('lists every flag', async () => {
    const m = failing(['--help']);
    expect(await m.exit).toEqual({ code: 0, signal: null });
    for (const flag of [
      '--port',
      '--mcp-port',
      '--host',
      '--api-key',
      '--models-key',
      '--proxy-key',
      '--seed',
      '--fixtures',
      '--state',
      '--clock-start',
      '--frozen-clock',
      '--rate-limit',
      '--step-ms',
      '--token-ms',
      '--poll-ms',
      '--admin-token',
      '--no-admin',
      '--json',
      '--log',
      '--help',
      '--api-key-file',
      '--models-key-file',
      '--proxy-key-file',
      '--admin-token-file',
      'OZ_MOCK_API_KEY',
      'OZ_MOCK_MODELS_KEY',
      'OZ_MOCK_PROXY_KEY',
      'OZ_MOCK_ADMIN_TOKEN',
      'process listings (ps)',
    ]) {
      expect(m.output()).toContain(flag);
    }
  });
});

describe('bad input at start: exit 2 naming the file and the field', () => {
  it('a fixture file with a bad field', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'tools:\n  - name: a\n    answer: x\n  - name: b\n    answer: y\n  - name: c\n    answer: [1]\n');
    const m = failing(['--port', '0', '--fixtures', file]);
    expect((await m.exit).code).toBe(2);
    expect(m.output()).toContain(`${file}: tools[2].answer must be a string`);
  });

  it('a fixture file that is missing or not YAML', async () => {
    const missing = failing(['--port', '0', '--fixtures', join(dir, 'nope.yaml')]);
    expect((await missing.exit).code).toBe(2);
    expect(missing.output()).toMatch(/cannot read the fixture file .*nope\.yaml: ENOENT/);
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{"tools": [');
    const broken = failing(['--port', '0', '--fixtures', file]);
    expect((await broken.exit).code).toBe(2);
    expect(broken.output()).toContain(`${file}: The fixture document is not valid JSON or YAML`);
  });

  it('a truncated or foreign state file is refused, and left as it is', async () => {
    for (const [name, content, message] of [
      ['truncated.json', '{"format": "oz-mock-state", "version": 1, "acc', /not a state file \(its JSON is unreadable or truncated/],
      ['foreign.json', '{"hello": "world"}', /Not an oz-mock state document/],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, content);
      const m = failing(['--port', '0', '--state', file]);
      expect((await m.exit).code).toBe(2);
      expect(m.output()).toMatch(message);
      expect(m.output()).toContain(file);
      expect(readFileSync(file, 'utf8')).toBe(content);
    }
  });

  // One case each: every case starts a process of its own, and six in a row outlasted a test's time on a busy machine.
  it.each([
    [['--admin-token', 'secret'], /--admin-token must be ozadm_/],
    [['--no-admin', '--admin-token', 'ozadm_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'], /exclude each other/],
    [['--clock-start', 'yesterday'], /--clock-start must be an RFC 3339 time/],
    [['--rate-limit', '-3'], /--rate-limit/],
    [['--rate-limit', 'many'], /--rate-limit must be a whole number/],
    [['--step-ms', 'fast'], /--step-ms must be a whole number/],
  ] as const)('bad flags: %j exits 2 naming the flag', async (args, message) => {
    const m = failing(['--port', '0', ...args]);
    expect((await m.exit).code).toBe(2);
    expect(m.output()).toMatch(message);
  });
});

describe('the state file', () => {
  it('is never written by a start that failed (a bad fixture file, a port in use)', async () => {
    const file = join(dir, 'kept.json');
    const { line } = await start(['--state', file]);
    const control = connectOzMock({ url: line.url, adminToken: line.adminToken! });
    await control.loadFixtures({ accounts: [{ name: 'kept' }] });
    await control.saveState();
    const saved = readFileSync(file, 'utf8');
    const bad = join(dir, 'bad-for-state.json');
    writeFileSync(bad, '{"accounts": [{"name": 7}]}');
    const failedFixtures = failing(['--port', '0', '--state', file, '--fixtures', bad]);
    expect((await failedFixtures.exit).code).toBe(2);
    expect(failedFixtures.output()).toContain(`${bad}: accounts[0].name must be a string`);
    const port = new URL(line.url).port;
    const failedListen = failing(['--port', port, '--state', file]);
    expect((await failedListen.exit).code).toBe(1);
    expect(failedListen.output()).toMatch(/cannot listen/);
    expect(readFileSync(file, 'utf8')).toBe(saved);
  });

  it('is loaded at start, written on a clean stop (atomically) and on POST /_oz/state/save', async () => {
    const file = join(dir, 'state.json');
    const adminToken = 'ozadm_StateStateStateStateStateState12';
    const { mock, line } = await start(['--state', file, '--admin-token', adminToken]);
    expect(existsSync(file)).toBe(false);
    const control = connectOzMock({ url: line.url, adminToken });
    await control.loadFixtures({ accounts: [{ name: 'persisted' }], keys: [{ account: 'persisted', value: 'ozk_PersistedPersistedPersisted12345' }] });
    expect(await control.saveState()).toBe(file);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: 'oz-mock-state', version: 1 });
    await control.loadFixtures({ tools: [{ name: 'late', answer: 'late answer' }] });
    expect(await mock.stop()).toEqual({ code: 0, signal: null });
    // No temporary file is left beside it.
    expect(readdirSync(dir).filter((f) => f.startsWith('state.json'))).toEqual(['state.json']);

    const again = await start(['--state', file]);
    const res = await fetch(`${again.line.url}/v1/tools/late/execute?format=text`, {
      method: 'POST',
      headers: { authorization: 'Bearer ozk_PersistedPersistedPersisted12345', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await res.text()).toBe('late answer');
  });
});

describe('the clock, the rate limit, the timing and the admin token', () => {
  it('--clock-start with --frozen-clock; --rate-limit; --poll-ms; the admin token from the environment', async () => {
    const token = 'ozadm_EnvEnvEnvEnvEnvEnvEnvEnvEnvEnvEn';
    const { line } = await start(['--frozen-clock', '--clock-start', '2030-01-02T03:04:05Z', '--rate-limit', '2', '--poll-ms', '2500'], {
      OZ_MOCK_ADMIN_TOKEN: token,
    });
    // Given, so not printed: the line names the source.
    expect(line.adminToken).toBeNull();
    expect(line.keySources.adminToken).toBe('env');
    const control = connectOzMock({ url: line.url, adminToken: token });
    expect(await control.clock.get()).toMatchObject({ now: '2030-01-02T03:04:05.000Z', frozen: true });
    expect(await control.settings()).toMatchObject({ rate_limit: 2, poll_ms: 2500 });
    const get = () => fetch(`${line.url}/v1/tools`, { headers: { authorization: `Bearer ${line.apiKey}` } });
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(429);
  });

  it('--rate-limit 0 turns the limit off', async () => {
    const { line } = await start(['--rate-limit', '0']);
    const res = await fetch(`${line.url}/v1/tools`, { headers: { authorization: `Bearer ${line.apiKey}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('prints the admin token in its text banner, and --no-admin turns the plane off', async () => {
    const m = spawnOzMock(['--port', '0']);
    running.push(m);
    const [, token] = await waitForOutput(m, /OZ_MOCK_ADMIN_TOKEN=(ozadm_[A-Za-z0-9]{32})/);
    const [, url] = await waitForOutput(m, /OZ_BASE_URL=(\S+)/);
    expect((await fetch(`${url}/_oz/clock`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const off = await start(['--no-admin']);
    expect(off.line.adminToken).toBeNull();
    expect((await fetch(`${off.line.url}/_oz/clock`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
  });

  it('--seed empty prints no key (none would answer), and fixtures make it usable', async () => {
    const file = join(dir, 'empty-seed.json');
    writeFileSync(file, JSON.stringify({ accounts: [{ name: 'solo' }], keys: [{ account: 'solo', value: 'ozk_SoloSoloSoloSoloSoloSoloSoloSolo' }] }));
    const { line } = await start(['--seed', 'empty', '--fixtures', file]);
    expect(line.apiKey).toBeNull();
    const res = await fetch(`${line.url}/v1/tools`, { headers: { authorization: 'Bearer ozk_SoloSoloSoloSoloSoloSoloSoloSolo' } });
    expect(res.status).toBe(200);
    const text = spawnOzMock(['--port', '0', '--seed', 'empty']);
    running.push(text);
    await waitForOutput(text, /Stop with Ctrl\+C/);
    expect(text.output()).not.toMatch(/OZ_API_KEY=/);
    expect(text.output()).toContain('no accounts or keys: add them with --fixtures FILE or POST /_oz/fixtures');
  });
});
