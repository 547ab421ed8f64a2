import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../dist/testing/cli.js', import.meta.url));

/** A running `oz-mock` (the built bin, started with `node`, never through npx) and what it printed. */
export interface OzMockProcess {
  /** The console's link as printed: `{url}/_oz/ui#token=<admin token>`. */
  readonly consoleLink: string;
  readonly url: string;
  readonly adminToken: string;
  readonly apiKey: string;
  /** The demo account's legacy models-plane key. */
  readonly modelsKey: string;
  readonly dashboardUrl: string;
  stop(): Promise<void>;
}

/** Starts `node dist/testing/cli.js` on free ports with a frozen clock and reads the link it prints. */
export async function startOzMock(args: readonly string[] = []): Promise<OzMockProcess> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build before npm run test:browser.`);
  const child: ChildProcess = spawn(
    process.execPath,
    [CLI, '--port', '0', '--mcp-port', '0', '--frozen-clock', '--clock-start', '2026-11-26T10:00:00Z', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const banner = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`oz-mock printed no banner in 30 s:\n${out}`)), 30_000);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('Stop with Ctrl+C.')) {
        clearTimeout(timer);
        resolve(out);
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('exit', (code) => reject(new Error(`oz-mock exited (${code}) before its banner:\n${out}`)));
  });
  const field = (pattern: RegExp) => pattern.exec(banner)?.[1] ?? '';
  const consoleLink = field(/^ {2}console: (\S+)$/m);
  return {
    consoleLink,
    url: field(/OZ_BASE_URL=(\S+)/),
    adminToken: field(/OZ_MOCK_ADMIN_TOKEN=(\S+)/),
    apiKey: field(/OZ_API_KEY=(\S+)/),
    modelsKey: field(/models key: (\S+)/),
    dashboardUrl: field(/OZ_DASHBOARD_URL=(\S+)/),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A request to the control plane with the admin token; answers the parsed JSON. */
export async function control<T = Record<string, unknown>>(mock: OzMockProcess, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${mock.url}/_oz${path}`, {
    method,
    headers: { authorization: `Bearer ${mock.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} /_oz${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** A request to the API with a key; answers the status. */
export async function callApi(mock: OzMockProcess, method: string, path: string, key: string, body?: unknown): Promise<number> {
  const res = await fetch(`${mock.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}
