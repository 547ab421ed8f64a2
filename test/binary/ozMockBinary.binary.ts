/**
 * The single executable of `npm run build:binary` (built first when missing or stale) behaves as `npx oz-mock`
 * where no Node.js is installed: run from an empty folder with no `node` on PATH (and, where the machine allows,
 * the machine's Node unreadable), it prints the same help and errors as the bin run from the source, its `--json`
 * line, serves a Python program's calls over HTTP, keeps its state across a restart with `--state`, and exits 0 on
 * SIGTERM; nothing on stderr (no "single-executable applications is experimental" warning).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ozMockBinary } from '../../scripts/binary/binaryFile.js';
import { ROOT, startOzMock, type OzMockLauncher, type SpawnedOzMock } from '../testing/control/spawnOzMock.js';
import { nodelessPlace } from './nodelessPlace.js';

const place = nodelessPlace(ozMockBinary(ROOT, (line) => process.stderr.write(`${line}\n`)));
const running: SpawnedOzMock[] = [];
afterAll(async () => {
  await Promise.all(running.map((mock) => mock.stop()));
  place.remove();
});

const run = ({ file, args, env, cwd }: OzMockLauncher) => spawnSync(file, args, { env, cwd, encoding: 'utf8', timeout: 30_000 });
/** The bin run from the source by this Node, as the rest of the suite runs it. */
const fromSource = (args: readonly string[]) =>
  run({ file: process.execPath, args: ['--import', 'tsx', 'src/testing/cli.ts', ...args], env: process.env, cwd: ROOT });
const binary = (args: readonly string[] = []) => place.launcher(place.binary, args);

/** Starts the executable with `--port 0 --json` and the flags given. */
async function start(args: readonly string[]): Promise<{ mock: SpawnedOzMock; line: Record<string, string | null> }> {
  const started = await startOzMock(args, {}, binary());
  running.push(started.mock);
  return { mock: started.mock, line: started.line as unknown as Record<string, string | null> };
}

describe('the place has no Node.js', () => {
  it('no node on PATH, and the Node that built the executable cannot run', () => {
    expect(run(place.launcher('/bin/sh', ['-c', 'command -v node'])).status).not.toBe(0);
    if (place.nodeHidden) expect(run(place.launcher(place.node, ['--version'])).status).not.toBe(0);
    expect(run(place.launcher('/bin/sh', ['-c', 'command -v python3'])).stdout.trim()).toBe(join(place.dir, 'bin/python3'));
  });
});

describe('the executable', () => {
  it('prints the help of oz-mock, exactly as the bin from the source does, and nothing on stderr', () => {
    const [ours, source] = [run(binary(['--help'])), fromSource(['--help'])];
    expect(ours.status).toBe(0);
    expect(ours.stdout).toContain('Usage: oz-mock [options]');
    expect(ours.stdout).toBe(source.stdout);
    expect(ours.stderr).toBe('');
  });

  it('refuses a bad flag with exit 2 and the same message', () => {
    const [ours, source] = [run(binary(['--port', 'eighty'])), fromSource(['--port', 'eighty'])];
    expect(ours.status).toBe(2);
    expect(ours.stderr).toBe('oz-mock: --port must be a port number from 0 to 65535\n');
    expect([ours.status, ours.stderr]).toEqual([source.status, source.stderr]);
  });

  it('prints the --json line with the fields of the bin from the source, and serves the same console script', async () => {
    const { mock, line } = await start([]);
    expect(line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(line.apiKey).toMatch(/^ozk_[A-Za-z0-9]{32}$/);
    expect(line.adminToken).toMatch(/^ozadm_[A-Za-z0-9]{32}$/);
    const source = await startOzMock([]);
    running.push(source.mock);
    expect(Object.keys(line)).toEqual(Object.keys(source.line));
    expect(mock.output().split('\n').filter(Boolean)).toHaveLength(1);
    // The console page's script is bundled from the sources at run time there, inlined at build time here.
    const [ours, theirs] = await Promise.all([line.url, source.line.url].map((url) => fetch(`${url}/_oz/ui/console.js`)));
    expect([ours!.status, ours!.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(await ours!.text()).toBe(await theirs!.text());
  });

  it("serves a Python program's calls over HTTP: tools, an execution, the journal with the admin token", async () => {
    const { line } = await start([]);
    const env = { ...place.env, OZ_BASE_URL: line.url!, OZ_API_KEY: line.apiKey!, OZ_MOCK_ADMIN_TOKEN: line.adminToken! };
    const python = run({ ...place.launcher('python3', [join(ROOT, 'test/binary/oz_mock_client.py')]), env });
    expect(python.stderr).toBe('');
    expect(python.status).toBe(0);
    const seen = JSON.parse(python.stdout) as Record<string, [number, unknown]>;
    expect(seen.tools![0]).toBe(200);
    expect(seen.tools![1]).toContain('echo');
    expect(seen.execute).toEqual([200, 'from python']);
    expect(seen.journal).toEqual([
      200,
      [
        ['GET', '/v1/tools', 'listTools', 200],
        ['POST', '/v1/tools/echo/execute', 'executeTool', 200],
      ],
    ]);
    expect(seen.journalWithApiKey).toEqual([401, 'unauthorized']);
  });

  it("serves the control plane's MCP on stdio (`oz-mock mcp`): initialize, the tools, a tool's answer", () => {
    const rpc = (id: number, method: string, params: object) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
    const input = [
      rpc(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'binary-test', version: '1' } }),
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      rpc(2, 'tools/list', {}),
      rpc(3, 'tools/call', { name: 'server_info', arguments: {} }),
    ].join('\n');
    const { file, args, env, cwd } = binary(['mcp', '--port', '0']);
    const ran = spawnSync(file, args, { env, cwd, input: `${input}\n`, encoding: 'utf8', timeout: 30_000 });
    expect(ran.status).toBe(0);
    const answers = ran.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: number; result: Record<string, unknown> });
    expect(answers.map((answer) => answer.id)).toEqual([1, 2, 3]);
    expect(answers[0]!.result.serverInfo).toMatchObject({ name: 'oz-mock' });
    const tools = (answers[1]!.result.tools as Array<{ name: string }>).map((tool) => tool.name);
    expect(tools).toEqual(expect.arrayContaining(['server_info', 'reset']));
    const info = answers[2]!.result.structuredContent as { url: string };
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('keeps its state across a restart with --state, and exits 0 on SIGTERM', async () => {
    const state = join(place.dir, 'oz-state.json');
    const key = 'ozk_BinaryBinaryBinaryBinary00000001';
    const first = await start(['--state', state, '--api-key', key]);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await fetch(`${first.line.url}/v1/companies/acme/items`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ building: 'hq', title: 'Kept by the executable' }),
    });
    expect(created.status).toBe(201);
    const item = (await created.json()) as { id: string };
    expect(await first.mock.stop()).toEqual({ code: 0, signal: null });
    expect(first.mock.output()).not.toMatch(/experimental|warning/i);
    expect(existsSync(state)).toBe(true);
    expect(readFileSync(state, 'utf8')).toContain(item.id);

    const second = await start(['--state', state, '--api-key', key]);
    const read = await fetch(`${second.line.url}/v1/companies/acme/items/${item.id}`, { headers });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { title: string }).title).toBe('Kept by the executable');
    expect(await second.mock.stop()).toEqual({ code: 0, signal: null });
  });
});
