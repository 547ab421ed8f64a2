/**
 * `npm run test:peers:mcp`: the official MCP conformance suite (`@modelcontextprotocol/conformance`, server mode)
 * against the embedded server's two MCP servers on 127.0.0.1, scenario by scenario: the service's (its MCP
 * listener, on an API key) and the control plane's (`/_oz/mcp` on the API's port, on the admin token). Its runner needs Node 22
 * (`fs.globSync`): it runs on the pinned Node 22 binary of test/ecosystem/runtimes (installed there with `npm ci`
 * when missing, as the ecosystem test does: a Linux x64 build, kept out of the root install so that `npm ci` of
 * the repository works on every platform). Offline: nothing leaves loopback.
 *
 * The scenarios are those that apply to a server offering tools only. Every check must pass, except the
 * warnings listed in {@link ACCEPTED_WARNINGS}, each with the reason the contract keeps it; a warning or
 * failure not listed there fails the run, and so does a listed warning that no longer appears (the list
 * must stay true).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createOzServer } from '../../src/testing/index.js';

const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection', 'server-sse-polling', 'server-sse-multiple-streams'] as const;

/** Warnings the contract keeps, by scenario and check id. */
type Warnings = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** Warnings the contract keeps for the service's MCP server. */
const ACCEPTED_WARNINGS: Warnings = {
  'server-sse-polling': {
    'server-sse-polling-session':
      'the service is a stateless JSON-RPC server (specification: "JSON-RPC 2.0 over HTTP POST"): it issues no Mcp-Session-Id, so that a POSTed tools/call works without a session',
    'server-sse-test-reconnection-tool':
      "test_reconnection is a tool of the conformance suite's own test server, not of this service; the probe also sends MCP-Protocol-Version 2025-03-26, which the contract answers with HTTP 400",
  },
  'server-sse-multiple-streams': {
    'server-sse-multiple-streams-session': 'no Mcp-Session-Id, as above (the scenario stops there)',
  },
};

/** Warnings kept for the control plane's MCP server (`/_oz/mcp`): stateless Streamable HTTP with JSON answers. */
const CONTROL_PLANE_WARNINGS: Warnings = {
  'server-sse-polling': {
    'server-sse-polling-session':
      "the control plane's MCP server is stateless (a server per POST, JSON answers): it issues no Mcp-Session-Id, so that any tools/call works on its own",
  },
  'server-sse-multiple-streams': {
    'server-sse-multiple-streams-session': 'no Mcp-Session-Id, as above (the scenario stops there)',
  },
};

interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | string;
  readonly description: string;
  readonly errorMessage?: string;
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
const runtimes = join(root, 'test', 'ecosystem', 'runtimes');
const node22 = join(runtimes, 'node_modules', 'node22', 'bin', 'node');
if (!existsSync(node22)) execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: runtimes, stdio: 'inherit' });
const runner = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
const preload = join(root, 'test', 'peers', 'conformanceAuth.mjs');

function findChecks(dir: string): string | null {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      const found = findChecks(path);
      if (found) return found;
    } else if (entry === 'checks.json') {
      return path;
    }
  }
  return null;
}

function runScenario(url: string, scenario: string, env: NodeJS.ProcessEnv): Promise<{ checks: Check[]; output: string }> {
  const out = mkdtempSync(join(tmpdir(), `oz-mcp-conformance-${scenario}-`));
  return new Promise((resolve, reject) => {
    const child = spawn(node22, ['--import', preload, runner, 'server', '--url', url, '--scenario', scenario, '-o', out], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      try {
        const file = findChecks(out);
        if (!file) throw new Error(`${scenario}: the runner wrote no checks.json\n${output}`);
        resolve({ checks: JSON.parse(readFileSync(file, 'utf8')) as Check[], output });
      } catch (err) {
        reject(err);
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    });
  });
}

const server = createOzServer();
const listener = await server.listen();
/** The MCP servers under test: each with the credential its client sends and the warnings it keeps. */
const TARGETS = [
  { name: "the service's MCP server", url: listener.mcpUrl, key: server.apiKey, accepted: ACCEPTED_WARNINGS },
  { name: "the control plane's MCP server", url: `${listener.url}/_oz/mcp`, key: server.adminToken!, accepted: CONTROL_PLANE_WARNINGS },
] as const;
const problems: string[] = [];

/** Runs every scenario against one MCP server; answers the scenarios that failed. */
async function runTarget(target: (typeof TARGETS)[number]): Promise<string[]> {
  const env = { ...process.env, OZ_CONFORMANCE_KEY: target.key, OZ_CONFORMANCE_ORIGIN: new URL(target.url).origin, NO_COLOR: '1' };
  const failed: string[] = [];
  console.log(`MCP conformance (server mode): ${target.name} at ${target.url}`);
  for (const scenario of SCENARIOS) {
    const { checks, output } = await runScenario(target.url, scenario, env);
    const accepted = target.accepted[scenario] ?? {};
    const judged = checks.filter((c) => c.status === 'SUCCESS' || c.status === 'FAILURE' || c.status === 'WARNING');
    const own: string[] = [];
    for (const c of judged) {
      if (c.status === 'SUCCESS') continue;
      if (c.status === 'WARNING' && accepted[c.id]) continue;
      own.push(`${c.status} ${c.id}: ${c.errorMessage ?? c.description}`);
    }
    for (const id of Object.keys(accepted))
      if (!checks.some((c) => c.id === id && c.status === 'WARNING')) own.push(`the accepted warning ${id} did not appear: update the accepted warnings`);
    if (judged.length === 0) own.push('no check was judged');
    const passed = judged.filter((c) => c.status === 'SUCCESS').length;
    const warned = judged.filter((c) => c.status === 'WARNING').length;
    console.log(`${own.length ? 'FAIL' : 'ok  '} ${scenario}: ${passed} passed, ${warned} accepted warning${warned === 1 ? '' : 's'}`);
    for (const line of own) console.log(`     ${line}`);
    if (own.length) {
      failed.push(`${target.name}: ${scenario}`);
      console.log(output.replace(/^/gm, '     | '));
    }
  }
  for (const [scenario, warnings] of Object.entries(target.accepted)) {
    for (const [id, why] of Object.entries(warnings)) console.log(`accepted warning ${scenario}/${id}: ${why}`);
  }
  return failed;
}

try {
  for (const target of TARGETS) problems.push(...(await runTarget(target)));
} finally {
  await listener.close();
  await server.close();
}
if (problems.length) {
  console.log(`\nMCP conformance failed: ${problems.join(', ')}`);
  process.exit(1);
}
console.log('\nMCP conformance: every scenario passed on both MCP servers.');
