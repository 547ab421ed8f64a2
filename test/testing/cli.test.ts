import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

interface Started {
  child: ChildProcess;
  output: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(args: string[], env: Record<string, string> = {}): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/testing/cli.ts', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, output: () => out, exit };
}

async function waitFor(started: Started, pattern: RegExp): Promise<RegExpMatchArray> {
  for (let i = 0; i < 400; i++) {
    const m = started.output().match(pattern);
    if (m) return m;
    if (started.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no ${pattern} in: ${started.output()}`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A port that is free, with the next one free too (other tests listen on random ports meanwhile). */
async function freePortPair(): Promise<number> {
  for (let i = 0; i < 20; i++) {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
    if (port < 65535 && (await canListen(port + 1))) return port;
  }
  throw new Error('no two free ports in a row');
}

function curl(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => execFile('curl', ['-s', ...args], (err, stdout) => (err ? reject(err) : resolve(stdout))));
}

describe('the oz-mock command', () => {
  it('prints its URL, MCP URL and keys, answers requests (curl included), and exits 0 on SIGTERM', async () => {
    const s = start(['--port', '0']);
    const [, url] = await waitFor(s, /OZ_BASE_URL=(http:\/\/127\.0\.0\.1:\d+)/);
    const [, mcpUrl] = await waitFor(s, /OZ_MCP_URL=(http:\/\/127\.0\.0\.1:\d+\/v1)/);
    const [, key] = await waitFor(s, /OZ_API_KEY=(ozk_[A-Za-z0-9]{32}) {3}\(account demo, tier pro; generated\)\n/);
    expect(s.output()).toMatch(/models key: sk-mdl-[A-Za-z0-9]{32} {3}\(generated\)\n/);
    expect(s.output()).toMatch(/proxy key: {2}sk-prx-[A-Za-z0-9]{32} {3}\(generated\)\n/);
    expect(s.output()).toMatch(/OZ_MOCK_ADMIN_TOKEN=ozadm_[A-Za-z0-9]{32} {3}\(control plane: .*; generated\)\n/);
    const res = await fetch(`${url}/v1/tools/echo/execute?format=text`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{"text":"from the command"}',
    });
    expect(await res.text()).toBe('from the command');
    const mcp = await fetch(mcpUrl!, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(await mcp.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(JSON.parse(await curl(['-H', `Authorization: Bearer ${key}`, `${url}/v1/tools`])).data).toHaveLength(4);
    s.child.kill('SIGTERM');
    expect(await s.exit).toEqual({ code: 0, signal: null });
  });

  it('takes --api-key, or OZ_MOCK_API_KEY, and the legacy keys; --json prints one line, given keys named, not shown; exits 0 on SIGINT', async () => {
    const key = `ozk_${'K'.repeat(32)}`;
    const s = start(['--port', '0', '--json', '--models-key', 'sk-mdl-fixed', '--proxy-key', 'sk-prx-fixed'], {
      OZ_MOCK_API_KEY: key,
      OZ_MOCK_ADMIN_TOKEN: '',
    });
    const [line] = await waitFor(s, /\{.*\}\n/);
    const info = JSON.parse(line!) as { url: string; apiKey: string; modelsKey: string; proxyKey: string };
    // A given key's value is not printed (the caller has it); the line says where it came from.
    expect(info).toMatchObject({
      apiKey: null,
      modelsKey: null,
      proxyKey: null,
      keySources: { apiKey: 'env', modelsKey: 'flag', proxyKey: 'flag', adminToken: 'generated' },
    });
    expect(line).not.toContain(key);
    expect((await fetch(`${info.url}/v1/tools`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    expect((await fetch(`${info.url}/v1/models`, { headers: { authorization: 'Bearer sk-mdl-fixed' } })).status).toBe(200);
    s.child.kill('SIGINT');
    expect((await s.exit).code).toBe(0);

    const explicit = start(['--port', '0', '--json', '--api-key', `ozk_${'E'.repeat(32)}`], { OZ_MOCK_API_KEY: key });
    const [l2] = await waitFor(explicit, /\{.*\}\n/);
    const url = (JSON.parse(l2!) as { url: string; keySources: { apiKey: string } }).url;
    expect((JSON.parse(l2!) as { keySources: { apiKey: string } }).keySources.apiKey).toBe('flag');
    expect((await fetch(`${url}/v1/tools`, { headers: { authorization: `Bearer ozk_${'E'.repeat(32)}` } })).status).toBe(200);
    expect((await fetch(`${url}/v1/tools`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
    explicit.child.kill('SIGTERM');
    expect((await explicit.exit).code).toBe(0);
  });

  it('uses --port and --port + 1 for the MCP URL by default', async () => {
    const port = await freePortPair();
    const s = start(['--port', String(port), '--json']);
    const [line] = await waitFor(s, /\{.*\}\n/);
    expect(JSON.parse(line!)).toMatchObject({ url: `http://127.0.0.1:${port}`, mcpUrl: `http://127.0.0.1:${port + 1}/v1` });
    s.child.kill('SIGTERM');
    expect((await s.exit).code).toBe(0);
  });

  it('refuses a malformed key (exit 2) and a port in use (exit 1)', async () => {
    const bad = start(['--api-key', 'ozk_short']);
    expect((await bad.exit).code).toBe(2);
    expect(bad.output()).toMatch(/--api-key must be ozk_ followed by 32/);
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const busy = (blocker.address() as { port: number }).port;
    const s = start(['--port', String(busy), '--mcp-port', '0']);
    expect((await s.exit).code).toBe(1);
    expect(s.output()).toMatch(/cannot listen/);
    blocker.close();
  });
});

describe('importing oz-sdk/testing without msw installed', () => {
  it('works; only server.handlers() asks for msw', async () => {
    const script = [
      "const { createOzServer } = await import('./src/testing/index.ts');",
      'const server = createOzServer();',
      "const res = await server.fetch(server.url + '/health');",
      'let message = "";',
      'try { server.handlers(); } catch (err) { message = err.message; }',
      'console.log(JSON.stringify({ status: res.status, message }));',
    ].join('\n');
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [
          '--require',
          './test/testing/fixtures/hideMsw.cjs',
          '--import',
          './test/testing/fixtures/hideMswHooks.mjs',
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          script,
        ],
        { cwd: root },
        (err, stdout, stderr) => (err ? reject(new Error(stderr || String(err))) : resolve(stdout)),
      ),
    );
    expect(JSON.parse(out.trim())).toEqual({
      status: 200,
      message:
        "server.handlers() could not load msw: install msw 2 (npm install --save-dev msw), or pass your own module: server.handlers({ msw }) after import * as msw from 'msw' (needed under jest, whose module registry this package's require cannot reach).",
    });
  });
});
