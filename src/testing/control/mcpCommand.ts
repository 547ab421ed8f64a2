import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { loadPart } from '../../core/shared/optionalPart.js';
import { isAdminTokenShape } from './adminToken.js';
import { mcpInstructions, serverAbout, type ServerAbout } from './controlMcpInfo.js';
import { CONTROL_TOOL_NAMES, SERVER_INFO_TOOL } from './controlTools.js';
import { controlPlaneCall, type ControlCall } from './remote.js';

const HELP = `oz-mock mcp: oz-mock's control plane as an MCP server on stdio, for coding agents.

Usage: oz-mock mcp [oz-mock options]                starts oz-mock as \`oz-mock [options]\` would (oz-mock --help)
                                                   and serves its control plane's MCP on stdio
       oz-mock mcp --attach URL [--admin-token T]  serves the MCP of an oz-mock already running at URL

  --attach <url>       the base URL of a running oz-mock (its API's URL, for example http://127.0.0.1:4010)
  --admin-token <t>    with --attach: its admin token (default: $OZ_MOCK_ADMIN_TOKEN)
  -h, --help           this help

stdout carries the MCP protocol alone: everything else oz-mock prints goes to stderr. The server stops when
stdin ends (an oz-mock it started stops cleanly: its --state file is written).
Tools: ${[SERVER_INFO_TOOL, ...Object.values(CONTROL_TOOL_NAMES)].join(', ')}.
`;

/**
 * How `oz-mock mcp` starts a server: the `oz-mock` command's own start with these flags, answering what it told
 * (with every key's value, also a given one the printed line leaves out), or nothing: the printed line is read.
 */
export type StartOzMock = (args: string[]) => Promise<ServerAbout | undefined | void>;

function fail(message: string): never {
  process.stderr.write(`oz-mock mcp: ${message}\n`);
  process.exit(2);
}

/**
 * Sends everything the process writes to stdout to stderr from now on (a line at a time to `onLine` too), and
 * answers the stream of the real stdout: the MCP protocol's alone.
 */
function protocolStdout(onLine: (line: string) => void): Writable {
  const stdout = process.stdout.write.bind(process.stdout) as (chunk: Uint8Array | string, done: (err?: Error | null) => void) => boolean;
  const stderr = process.stderr.write.bind(process.stderr) as (...args: unknown[]) => boolean;
  let pending = '';
  process.stdout.write = ((chunk: Uint8Array | string, ...rest: unknown[]) => {
    pending += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      onLine(pending.slice(0, end));
      pending = pending.slice(end + 1);
    }
    return stderr(chunk, ...rest);
  }) as typeof process.stdout.write;
  return new Writable({ write: (chunk: Buffer, _encoding, done) => void stdout(chunk, done) });
}

/** Starts oz-mock with `args` (and `--json`); answers what it told: URLs, keys, the admin token. */
async function started(args: readonly string[], start: StartOzMock, lines: Promise<ServerAbout>): Promise<ServerAbout> {
  if (args.includes('--no-admin')) fail('--no-admin turns the control plane off: the MCP server has nothing to drive');
  // What the start answers, not its line: the line leaves out a key or token given by flag, file or environment.
  const told = await start([...args, '--json']);
  const { url, ...rest } = told ?? (await lines);
  return { ...serverAbout(String(url)), ...rest };
}

/** Attaches to a running oz-mock: answers its URLs and admin token once its control plane answered. */
async function attached(args: readonly string[]): Promise<{ about: ServerAbout; call: ControlCall }> {
  let values;
  try {
    ({ values } = parseArgs({ args: [...args], options: { attach: { type: 'string' }, 'admin-token': { type: 'string' } }, strict: true }));
  } catch (err) {
    fail(`${(err as Error).message} (with --attach, only --admin-token is an option)`);
  }
  const url = values.attach ?? '';
  if (!/^https?:\/\/[^/]/.test(url)) fail('--attach must be the http(s) URL of a running oz-mock, for example http://127.0.0.1:4010');
  const adminToken = values['admin-token'] ?? process.env.OZ_MOCK_ADMIN_TOKEN ?? '';
  if (!isAdminTokenShape(adminToken)) fail('--attach needs the admin token: --admin-token ozadm_... (or $OZ_MOCK_ADMIN_TOKEN), as oz-mock printed it');
  const call = controlPlaneCall({ url, adminToken });
  await call('GET', '/clock').catch((err: unknown) => fail(`the control plane of ${url} did not answer: ${(err as Error).message}`));
  return { about: { ...serverAbout(url), adminToken }, call };
}

/**
 * `oz-mock mcp [flags]`: starts oz-mock as `oz-mock [flags]` would (through `start`) and serves its control
 * plane's MCP on stdio; `oz-mock mcp --attach URL --admin-token T` serves that of an oz-mock already running.
 */
export async function mcpCommand(args: readonly string[], start: StartOzMock): Promise<void> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(HELP);
    return;
  }
  let announced: (about: ServerAbout) => void = () => undefined;
  const lines = new Promise<ServerAbout>((resolve) => (announced = resolve));
  const protocol = protocolStdout((line) => {
    if (!line.startsWith('{')) return;
    try {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (typeof parsed.url === 'string') announced(parsed);
    } catch {
      // Not the start line: it only goes to stderr.
    }
  });
  const attach = args.some((a) => a === '--attach' || a.startsWith('--attach='));
  const { about, call } = attach
    ? await attached(args)
    : await started(args, start, lines).then((a) => ({ about: a, call: controlPlaneCall({ url: String(a.url), adminToken: String(a.adminToken) }) }));
  const { serveMcpOnStdio } = await loadPart("the control plane's MCP server on stdio", () => import('./controlMcpStdio.js'));
  // When stdin ends: an oz-mock started here stops as on SIGTERM (cleanly, its state file written); an attached one runs on.
  const end = attach ? () => process.exit(0) : () => void process.emit('SIGTERM', 'SIGTERM');
  await serveMcpOnStdio({ call, instructions: mcpInstructions(about), about: () => Promise.resolve(about) }, process.stdin, protocol, end);
}
