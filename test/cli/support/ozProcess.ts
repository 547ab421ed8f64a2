import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtBins } from './builtCli.js';

/** What a finished `oz` run left. */
export interface OzRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A running `oz-mock` (the built bin on a free loopback port) and its printed facts. */
export interface MockServer {
  url: string;
  mcpUrl: string;
  dashboardUrl: string;
  apiKey: string;
  adminToken: string;
  /** A request to its control plane. */
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  stop(): Promise<void>;
}

export const ADMIN_TOKEN = 'ozadm_0123456789abcdefghijklmnopqrstuv';

/** The environment of every child: the machine's, without any OZ_ variable of the developer's. */
function cleanEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OZ_') && name !== 'XDG_CONFIG_HOME'));
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) env[name] = value;
  return env;
}

/** Starts the built oz-mock with these flags and reads its JSON line. */
export async function startMock(args: string[] = []): Promise<MockServer> {
  const bins = await builtBins();
  const child = spawn(process.execPath, [join(bins, 'testing/cli.js'), '--port', '0', '--json', '--admin-token', ADMIN_TOKEN, ...args], {
    env: cleanEnv({}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const newline = out.indexOf('\n');
      if (newline !== -1) resolve(out.slice(0, newline));
    });
    child.on('exit', (code) => reject(new Error(`oz-mock exited ${code} before it printed its URLs`)));
  });
  const facts = JSON.parse(line) as { url: string; mcpUrl: string; dashboardUrl: string; apiKey: string };
  return {
    ...facts,
    adminToken: ADMIN_TOKEN,
    async control(method, path, body) {
      const response = await fetch(`${facts.url}/_oz${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} /_oz${path}: ${response.status} ${text}`);
      return text ? (JSON.parse(text) as unknown) : undefined;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.on('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A configuration directory of its own (OZ_CONFIG_DIR), removed by `remove()`. */
export function configDir(): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'oz-cli-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Starts the built `oz` with these arguments and environment (stdin closed unless `input` is given). */
export async function spawnOz(args: string[], env: Record<string, string | undefined>, input?: string): Promise<ChildProcess> {
  const bins = await builtBins();
  const child = spawn(process.execPath, [join(bins, 'cli/oz.js'), ...args], { env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin!.end(input ?? '');
  return child;
}

/** What a child wrote and how it ended. */
export function finished(child: ChildProcess): Promise<OzRun> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

/** Runs the built `oz` to its end. */
export async function oz(args: string[], env: Record<string, string | undefined>, input?: string): Promise<OzRun> {
  return await finished(await spawnOz(args, env, input));
}
