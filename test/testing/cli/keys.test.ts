/**
 * oz-mock's keys and admin token from a flag, a file (`--<flag>-file`, its first line) or the environment
 * (`OZ_MOCK_*`): the server takes each, a flag beats a file beats the environment, the banner and the `--json` line
 * name where each came from and never show a given value, a bad source stops the start (exit 2, the flag and the
 * path named, no stack trace), and no value given by file or environment shows in any process's arguments.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { spawnOzMock, startOzMock, waitForOutput, type SpawnedOzMock, type StartLine } from '../control/spawnOzMock.js';

const dir = mkdtempSync(join(tmpdir(), 'oz-mock-keys-'));
const running: SpawnedOzMock[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((m) => m.stop()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type KeyName = 'apiKey' | 'modelsKey' | 'proxyKey' | 'adminToken';
type Source = 'flag' | 'file' | 'env';
const NAMES: readonly KeyName[] = ['apiKey', 'modelsKey', 'proxyKey', 'adminToken'];
const FLAG: Readonly<Record<KeyName, string>> = { apiKey: '--api-key', modelsKey: '--models-key', proxyKey: '--proxy-key', adminToken: '--admin-token' };
const ENV: Readonly<Record<KeyName, string>> = {
  apiKey: 'OZ_MOCK_API_KEY',
  modelsKey: 'OZ_MOCK_MODELS_KEY',
  proxyKey: 'OZ_MOCK_PROXY_KEY',
  adminToken: 'OZ_MOCK_ADMIN_TOKEN',
};
/** Every variable unset in the child, whatever this shell holds; a case sets its own. */
const NO_ENV: Readonly<Record<string, string>> = Object.fromEntries(Object.values(ENV).map((name) => [name, '']));

/** 32 letters or digits, new each run: a value no other process on the machine holds by chance. */
const random = () =>
  randomBytes(32)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .padEnd(32, '0')
    .slice(0, 32);

/** A value of the key's shape, telling the source it was given by. */
function value(name: KeyName, source: Source): string {
  const body = `${source}${random()}`.slice(0, 32);
  return { apiKey: `ozk_${body}`, modelsKey: `sk-mdl-${body}`, proxyKey: `sk-prx-${body}`, adminToken: `ozadm_${body}` }[name];
}

function file(text: string): string {
  const path = join(dir, `${random()}.txt`);
  writeFileSync(path, text);
  return path;
}

/** The flags and the environment that give each key by its planned source, and the values given. */
function given(plan: Readonly<Partial<Record<KeyName, Source>>>): { args: string[]; env: Record<string, string>; values: Partial<Record<KeyName, string>> } {
  const args: string[] = [];
  const env: Record<string, string> = { ...NO_ENV };
  const values: Partial<Record<KeyName, string>> = {};
  for (const name of NAMES) {
    const source = plan[name];
    if (source === undefined) continue;
    const v = (values[name] = value(name, source));
    if (source === 'flag') args.push(FLAG[name], v);
    if (source === 'file') args.push(`${FLAG[name]}-file`, file(`${v}\n`));
    if (source === 'env') env[ENV[name]] = v;
  }
  return { args, env, values };
}

/** The status of a request made with this key where it belongs: 401 means the server does not take it. */
async function statusWith(url: string, name: KeyName, key: string): Promise<number> {
  const path = { apiKey: '/v1/tools', modelsKey: '/v1/models', proxyKey: '/v1/proxy/crm/x', adminToken: '/_oz/clock' }[name];
  return (await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } })).status;
}

/** What the server answers with the key where it belongs (the proxy answers 424 to a known key: no crm connection). */
const TAKEN: Readonly<Record<KeyName, number>> = { apiKey: 200, modelsKey: 200, proxyKey: 424, adminToken: 200 };

async function start(args: readonly string[], env: Record<string, string>): Promise<{ mock: SpawnedOzMock; line: StartLine & Record<string, unknown> }> {
  const started = await startOzMock(args, env);
  running.push(started.mock);
  return started as { mock: SpawnedOzMock; line: StartLine & Record<string, unknown> };
}

function expectNoValue(text: string, values: Partial<Record<KeyName, string>>): void {
  for (const v of Object.values(values)) expect(text).not.toContain(v);
}

describe('oz-mock keys from a flag, a file or the environment', () => {
  const SOURCES: readonly Source[] = ['flag', 'file', 'env'];
  // Three starts cover every source for every key: key j takes source (shift + j) mod 3.
  it.each([0, 1, 2])('shift %i: each key from its source is taken, named in keySources and left out of the --json line', async (shift) => {
    const plan = Object.fromEntries(NAMES.map((name, j) => [name, SOURCES[(shift + j) % 3]!])) as Record<KeyName, Source>;
    const { args, env, values } = given(plan);
    const { mock, line } = await start(args, env);
    expect(line.keySources).toEqual(plan);
    for (const name of NAMES) expect({ name, printed: line[name] }).toEqual({ name, printed: null });
    // The console's link would carry the token in its fragment: without it, the page asks for the token.
    expect(line.consoleUrl).toBe(`${line.url}/_oz/ui`);
    expect(line.otherApiKey).toMatch(/^ozk_[A-Za-z0-9]{32}$/);
    for (const name of NAMES) expect({ name, status: await statusWith(line.url, name, values[name]!) }).toEqual({ name, status: TAKEN[name] });
    expectNoValue(mock.output(), values);
  });

  it('a flag beats the environment, a file beats the environment (the loser is refused)', async () => {
    const flagApi = value('apiKey', 'flag');
    const envApi = value('apiKey', 'env');
    const fileModels = value('modelsKey', 'file');
    const envModels = value('modelsKey', 'env');
    const fileAdmin = value('adminToken', 'file');
    const envAdmin = value('adminToken', 'env');
    const args = ['--api-key', flagApi, '--models-key-file', file(`${fileModels}\n`), '--admin-token-file', file(`${fileAdmin}\r\n`)];
    const { line } = await start(args, { ...NO_ENV, OZ_MOCK_API_KEY: envApi, OZ_MOCK_MODELS_KEY: envModels, OZ_MOCK_ADMIN_TOKEN: envAdmin });
    expect(line.keySources).toEqual({ apiKey: 'flag', modelsKey: 'file', proxyKey: 'generated', adminToken: 'file' });
    expect(await statusWith(line.url, 'apiKey', flagApi)).toBe(200);
    expect(await statusWith(line.url, 'apiKey', envApi)).toBe(401);
    expect(await statusWith(line.url, 'modelsKey', fileModels)).toBe(200);
    expect(await statusWith(line.url, 'modelsKey', envModels)).toBe(401);
    expect(await statusWith(line.url, 'adminToken', fileAdmin)).toBe(200);
    expect(await statusWith(line.url, 'adminToken', envAdmin)).toBe(401);
    // A generated key is printed, and taken.
    expect(line.proxyKey).toMatch(/^sk-prx-[A-Za-z0-9]{32}$/);
    expect(await statusWith(line.url, 'proxyKey', line.proxyKey as string)).toBe(424);
  });

  it('the banner names where each given key came from and prints none of them', async () => {
    const { args, env, values } = given({ apiKey: 'env', modelsKey: 'file', proxyKey: 'flag', adminToken: 'env' });
    const modelsFile = args[args.indexOf('--models-key-file') + 1]!;
    const m = spawnOzMock(['--port', '0', ...args], env);
    running.push(m);
    const banner = (await waitForOutput(m, /Stop with Ctrl\+C\./)).input!;
    const [, url] = /OZ_BASE_URL=(\S+)/.exec(banner)!;
    expect(banner).toContain(`  OZ_MOCK_ADMIN_TOKEN: from env OZ_MOCK_ADMIN_TOKEN, not printed   (control plane: ${url}/_oz/, see ${url}/_oz/openapi.json)\n`);
    expect(banner).toContain(`  console: ${url}/_oz/ui   (it asks for the admin token)\n`);
    expect(banner).toContain('  OZ_API_KEY: from env OZ_MOCK_API_KEY, not printed   (account demo, tier pro)\n');
    expect(banner).toContain(`  models key: from file --models-key-file ${modelsFile}, not printed\n`);
    expect(banner).toContain('  proxy key: from flag --proxy-key, not printed\n');
    expect(banner).toContain(`Try: curl -H "Authorization: Bearer $OZ_API_KEY" ${url}/v1/tools\n`);
    expectNoValue(banner, values);
  });

  it('with --seed empty no demo key exists, with --no-admin no token (an OZ_MOCK_ADMIN_TOKEN in the shell is ignored)', async () => {
    const { line } = await start(['--seed', 'empty', '--no-admin'], { ...NO_ENV, OZ_MOCK_ADMIN_TOKEN: 'not-a-token' });
    expect(line.keySources).toEqual({ apiKey: null, modelsKey: null, proxyKey: null, adminToken: null });
    expect(line.adminToken).toBeNull();
  });
});

describe('a bad key source stops the start: exit 2, the flag (or variable) and the path named, no stack trace, no value', () => {
  const missing = join(dir, 'missing-key.txt');
  const bad = 'ozk_tooShortToBeAKey';
  const cases: ReadonlyArray<readonly [string, () => { args: string[]; env?: Record<string, string>; message: string }]> = [
    ['an unreadable file', () => ({ args: ['--api-key-file', missing], message: `oz-mock: --api-key-file: cannot read ${missing} (ENOENT)` })],
    ['a directory', () => ({ args: ['--proxy-key-file', dir], message: `oz-mock: --proxy-key-file: cannot read ${dir} (EISDIR)` })],
    [
      'an empty file',
      () => {
        const path = file('\n');
        return { args: ['--models-key-file', path], message: `oz-mock: --models-key-file: ${path} is empty (the value goes on its first line)` };
      },
    ],
    [
      'a flag with its file',
      () => ({
        args: ['--admin-token', value('adminToken', 'flag'), '--admin-token-file', file(`${value('adminToken', 'file')}\n`)],
        message: 'oz-mock: --admin-token and --admin-token-file exclude each other: give the value one way',
      }),
    ],
    [
      '--no-admin with --admin-token-file',
      () => ({
        args: ['--no-admin', '--admin-token-file', file(`${value('adminToken', 'file')}\n`)],
        message: 'oz-mock: --no-admin and --admin-token-file exclude each other',
      }),
    ],
    [
      'a bad api key from a file',
      () => {
        const path = file(`${bad}\n`);
        return { args: ['--api-key-file', path], message: `oz-mock: --api-key-file ${path}: its first line must be ozk_ followed by 32 letters or digits` };
      },
    ],
    [
      'a models key of the proxy plane from a file',
      () => {
        const path = file('sk-prx-wrongPlane\n');
        return { args: ['--models-key-file', path], message: `oz-mock: --models-key-file ${path}: its first line must start with sk-mdl-` };
      },
    ],
    [
      'a bad api key from the environment',
      () => ({ args: [], env: { OZ_MOCK_API_KEY: bad }, message: 'oz-mock: OZ_MOCK_API_KEY must be ozk_ followed by 32 letters or digits' }),
    ],
    [
      'a bad proxy key from the environment',
      () => ({ args: [], env: { OZ_MOCK_PROXY_KEY: 'sk-mdl-wrongPlane' }, message: 'oz-mock: OZ_MOCK_PROXY_KEY must start with sk-prx-' }),
    ],
    [
      'a bad admin token from the environment',
      () => ({
        args: [],
        env: { OZ_MOCK_ADMIN_TOKEN: 'ozadm_short' },
        message: 'oz-mock: OZ_MOCK_ADMIN_TOKEN must be ozadm_ followed by 32 letters or digits',
      }),
    ],
  ];
  // One case each: every case starts a process of its own.
  it.each(cases)('%s', async (_, make) => {
    const { args, env = {}, message } = make();
    const m = spawnOzMock(['--port', '0', ...args], { ...NO_ENV, ...env });
    running.push(m);
    expect((await m.exit).code).toBe(2);
    expect(m.output()).toBe(`${message}\n`);
    expect(m.output()).not.toMatch(/^\s+at /m);
    for (const shown of [bad, 'sk-prx-wrongPlane', 'sk-mdl-wrongPlane', 'ozadm_short']) expect(m.output()).not.toContain(shown);
  });
});

/** Every process's arguments on the machine, as `ps` shows them and as /proc holds them. */
function everyProcessArguments(): string {
  const listed = execFileSync('ps', ['-ww', '-eo', 'pid=,args='], { encoding: 'utf8' });
  const proc = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map((pid) => {
      try {
        return `${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')}`;
      } catch {
        return ''; // gone meanwhile
      }
    });
  return `${listed}\n${proc.join('\n')}`;
}

describe.runIf(process.platform === 'linux')('a process listing', () => {
  it('shows no key or token given by file or environment, in any process', async () => {
    const { args, env, values } = given({ apiKey: 'env', modelsKey: 'file', proxyKey: 'file', adminToken: 'env' });
    const m = spawnOzMock(['--port', '0', '--json', ...args], env);
    try {
      const line = JSON.parse((await waitForOutput(m, /^\{.*\}$/m))[0]) as StartLine;
      // The values are live: the server takes each of them.
      for (const name of NAMES) expect({ name, status: await statusWith(line.url, name, values[name]!) }).toEqual({ name, status: TAKEN[name] });
      const listing = everyProcessArguments();
      // The listing is this machine's, oz-mock's own arguments in it (the key files' paths), from both sources.
      const own = readFileSync(`/proc/${m.child.pid!}/cmdline`, 'utf8').split('\0');
      expect(own).toEqual(expect.arrayContaining(['--models-key-file', '--proxy-key-file', args[args.indexOf('--models-key-file') + 1]]));
      expect(listing).toMatch(new RegExp(`^\\s*${m.child.pid!} .*--proxy-key-file`, 'm'));
      expectNoValue(listing, values);
      expectNoValue(m.output(), values);
    } finally {
      await m.stop();
    }
  });
});
