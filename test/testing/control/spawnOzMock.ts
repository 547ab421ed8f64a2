import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** A spawned `oz-mock` (node on the source, never through npx: npx's child would outlive a kill). */
export interface SpawnedOzMock {
  readonly child: ChildProcess;
  /** Everything it printed (stdout and stderr). */
  output(): string;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Stops it with SIGTERM and waits for its exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** How `oz-mock` is started: a file, the arguments before the flags, the whole environment, the folder. */
export interface OzMockLauncher {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/** node on the source, in this process's environment. */
const FROM_SOURCE: OzMockLauncher = { file: process.execPath, args: ['--import', 'tsx', 'src/testing/cli.ts'], env: process.env, cwd: ROOT };

/** Starts `oz-mock` with the given flags (from the source, unless another launcher is given). */
export function spawnOzMock(args: readonly string[], env: Record<string, string> = {}, launcher: OzMockLauncher = FROM_SOURCE): SpawnedOzMock {
  const child = spawn(launcher.file, [...launcher.args, ...args], { cwd: launcher.cwd, env: { ...launcher.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    output: () => out,
    exit,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exit;
    },
  };
}

/** Waits until the output matches (or the process ended). */
export async function waitForOutput(started: SpawnedOzMock, pattern: RegExp, timeoutMs = 15_000): Promise<RegExpMatchArray> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const m = started.output().match(pattern);
    if (m) return m;
    if (started.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no ${pattern} in: ${started.output()}`);
}

/** What `oz-mock --json` prints. */
export interface StartLine {
  readonly url: string;
  readonly mcpUrl: string;
  readonly apiKey: string | null;
  readonly adminToken: string | null;
  /** Where each key came from (`flag`, `file`, `env`, `generated`; `null`: no such key). */
  readonly keySources: Readonly<Record<'apiKey' | 'modelsKey' | 'proxyKey' | 'adminToken', string | null>>;
}

/** Starts `oz-mock --port 0 --json ...` and reads its start line. */
export async function startOzMock(
  args: readonly string[],
  env: Record<string, string> = {},
  launcher: OzMockLauncher = FROM_SOURCE,
): Promise<{ mock: SpawnedOzMock; line: StartLine }> {
  const mock = spawnOzMock(['--port', '0', '--json', ...args], env, launcher);
  const [json] = await waitForOutput(mock, /^\{.*\}$/m);
  return { mock, line: JSON.parse(json) as StartLine };
}
