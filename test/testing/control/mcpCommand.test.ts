/**
 * `oz-mock mcp` on stdio through the official MCP client (`Client` over `StdioClientTransport`, spawning
 * `node src/testing/cli.ts mcp` with the arguments of the documented client configuration,
 * examples/fixtures/mcp-servers.json): the server it starts, its URLs and keys in the instructions and in
 * server_info, stdout left to the protocol, a clean stop when stdin ends; `--attach`; and every refused start.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createOzServer } from '../../../src/testing/index.js';
import { ROOT, spawnOzMock, type SpawnedOzMock } from './spawnOzMock.js';
import { CONTROL_TOOL_NAMES } from '../../../src/testing/control/controlTools.js';

const dir = mkdtempSync(join(tmpdir(), 'oz-mock-mcp-'));
const TOKEN = 'ozadm_AttachAttachAttachAttachAttachAt';
const running: SpawnedOzMock[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((m) => m.stop()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The documented MCP client configuration: `npx oz-mock mcp ...`. */
const CONFIG = JSON.parse(readFileSync(join(ROOT, 'examples/fixtures/mcp-servers.json'), 'utf8')) as {
  mcpServers: { 'oz-mock': { command: string; args: string[] } };
};

/** The official client on `oz-mock mcp <args>` (node on the source, as the config's `npx oz-mock` runs the bin). */
async function spawnMcp(args: readonly string[], env: Record<string, string> = {}): Promise<{ client: Client; stderr: () => string; pid: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'src/testing/cli.ts', ...args],
    cwd: ROOT,
    stderr: 'pipe',
    env: { ...(process.env as Record<string, string>), OZ_MOCK_ADMIN_TOKEN: '', ...env },
  });
  let stderr = '';
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'oz-mock-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, pid: transport.pid! };
}

const structured = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  ((await client.callTool({ name, arguments: args })) as CallToolResult).structuredContent as Record<string, any>;

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

describe('oz-mock mcp [flags]', () => {
  it("starts oz-mock as its flags say, names its URLs and keys, serves the control plane's tools, and stops cleanly when stdin ends", async () => {
    const { command, args } = CONFIG.mcpServers['oz-mock'];
    expect([command, args[0], args[1]]).toEqual(['npx', 'oz-mock', 'mcp']);
    const state = join(dir, 'state.json');
    // The config's flags, on a free port; --log's lines must not reach stdout (the client would fail to parse them).
    const { client, stderr, pid } = await spawnMcp([...args.slice(1), '--port', '0', '--state', state, '--log']);
    const info = await structured(client, 'server_info');
    expect(info).toMatchObject({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      apiKey: expect.stringMatching(/^ozk_/),
      adminToken: expect.stringMatching(/^ozadm_/),
      mcpUrl: expect.stringMatching(/^http:/),
      controlMcpUrl: `${info.url}/_oz/mcp`,
    });
    for (const field of ['url', 'apiKey', 'adminToken', 'mcpUrl', 'dashboardUrl']) expect(client.getInstructions()).toContain(`${field}: ${info[field]}`);
    expect((await structured(client, 'get_clock')).frozen).toBe(true);
    expect((await fetch(`${info.url}/v1/tools`, { headers: { authorization: `Bearer ${info.apiKey}` } })).status).toBe(200);
    expect((await structured(client, 'read_journal')).data.map((e: { path: string; status: number }) => [e.path, e.status])).toEqual([['/v1/tools', 200]]);
    expect(stderr()).toContain('GET /v1/tools 200 listTools');
    expect(stderr()).toContain(`"url":"${info.url}"`);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['server_info', ...Object.values(CONTROL_TOOL_NAMES)]);
    const started = Date.now();
    await client.close();
    // It stopped by itself (the transport waits 2 s before a signal), writing its state file.
    expect(Date.now() - started).toBeLessThan(1_900);
    expect(gone(pid)).toBe(true);
    expect(JSON.parse(readFileSync(state, 'utf8'))).toMatchObject({ format: 'oz-mock-state' });
  });
});

describe('oz-mock mcp with its keys given', () => {
  it('drives the control plane with an admin token from a file and names an API key from the environment, neither in the printed line', async () => {
    const apiKey = 'ozk_McpEnvMcpEnvMcpEnvMcpEnvMcpEnv12';
    const tokenFile = join(dir, 'admin-token');
    writeFileSync(tokenFile, `${TOKEN}\n`);
    const { client, stderr } = await spawnMcp(['mcp', '--port', '0', '--admin-token-file', tokenFile], { OZ_MOCK_API_KEY: apiKey });
    try {
      // server_info and the tools use the values themselves, though the start line (on stderr) leaves them out.
      expect(await structured(client, 'server_info')).toMatchObject({ apiKey, adminToken: TOKEN, keySources: { apiKey: 'env', adminToken: 'file' } });
      expect((await structured(client, 'get_clock')).frozen).toBe(false);
      expect(stderr()).toContain('"keySources":{"apiKey":"env"');
      expect(stderr()).not.toContain(TOKEN);
      expect(stderr()).not.toContain(apiKey);
    } finally {
      await client.close();
    }
  });
});

describe('oz-mock mcp --attach URL --admin-token T', () => {
  it('serves the MCP of an oz-mock already running: its tools act on that server, which runs on after stdin ends', async () => {
    const server = createOzServer({ adminToken: TOKEN });
    const listener = await server.listen();
    try {
      const { client } = await spawnMcp(['mcp', '--attach', listener.url, '--admin-token', TOKEN]);
      expect(await structured(client, 'server_info')).toMatchObject({ url: listener.url, adminToken: TOKEN, controlMcpUrl: `${listener.url}/_oz/mcp` });
      expect(client.getInstructions()).toContain(`url: ${listener.url}`);
      const fault = await structured(client, 'add_fault', { type: 'drop', operationId: 'getTool' });
      expect(server.unused().faults.map((f) => f.id)).toEqual([fault.id]);
      await client.close();
      expect((await fetch(`${listener.url}/_oz/faults`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    } finally {
      await listener.close();
      await server.close();
    }
  });
});

describe('oz-mock mcp refuses to start (exit 2, the reason on stderr, nothing on stdout)', () => {
  async function refused(args: string[], env: Record<string, string> = {}): Promise<string> {
    const m = spawnOzMock(['mcp', ...args], { OZ_MOCK_ADMIN_TOKEN: '', ...env });
    running.push(m);
    expect(await m.exit).toEqual({ code: 2, signal: null });
    return m.output();
  }

  it('without the control plane', async () => {
    expect(await refused(['--port', '0', '--no-admin'])).toContain('oz-mock mcp: --no-admin turns the control plane off');
  });

  it('with a bad flag of oz-mock', async () => {
    expect(await refused(['--port', 'x'])).toContain('oz-mock: --port must be a port number');
  });

  it('--attach without a token, with a bad URL, an extra flag, a wrong token, or nothing listening', async () => {
    const server = createOzServer({ adminToken: TOKEN });
    const listener = await server.listen();
    try {
      expect(await refused(['--attach', listener.url])).toContain('oz-mock mcp: --attach needs the admin token');
      expect(await refused(['--attach', 'ftp://host', '--admin-token', TOKEN])).toContain('oz-mock mcp: --attach must be the http(s) URL of a running oz-mock');
      expect(await refused(['--attach', listener.url, '--admin-token', TOKEN, '--port', '0'])).toContain(
        "Unknown option '--port' (with --attach, only --admin-token is an option)",
      );
      expect(await refused(['--attach', listener.url, '--admin-token', 'ozadm_WrongWrongWrongWrongWrongWrongWr'])).toContain(
        `oz-mock mcp: the control plane of ${listener.url} did not answer: Wrong admin token.`,
      );
      const { port } = new URL(listener.url);
      await listener.close();
      expect(await refused(['--attach', `http://127.0.0.1:${port}`], { OZ_MOCK_ADMIN_TOKEN: TOKEN })).toContain(
        `the control plane of http://127.0.0.1:${port} did not answer`,
      );
    } finally {
      await server.close();
    }
  });
});

describe('oz-mock mcp --help', () => {
  it('says how to start and attach, and names every tool', async () => {
    const m = spawnOzMock(['mcp', '--help']);
    running.push(m);
    expect(await m.exit).toEqual({ code: 0, signal: null });
    for (const text of ['--attach <url>', '--admin-token <t>', 'stdout carries the MCP protocol alone', 'server_info', 'list_unused', 'add_stub'])
      expect(m.output()).toContain(text);
  });
});
