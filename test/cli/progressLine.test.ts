/**
 * `--wait`'s progress line in a real terminal: the built `oz` in a pseudo-terminal (@lydell/node-pty), where
 * stderr is a TTY. The line shows the run, its status, the polls and the time, and is cleared before the result.
 */
import { join } from 'node:path';
import { spawn } from '@lydell/node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtBins } from './support/builtCli.js';
import { configDir, startMock, type MockServer } from './support/ozProcess.js';

let mock: MockServer;
let config: ReturnType<typeof configDir>;

beforeAll(async () => {
  // Runs take a few polls: each step of the run lasts 400 ms.
  mock = await startMock(['--step-ms', '400']);
  config = configDir();
}, 60_000);

afterAll(async () => {
  await mock?.stop();
  config?.remove();
});

describe('oz --wait in a terminal', { timeout: 60_000 }, () => {
  it('draws a live progress line on stderr, then clears it and prints the result', async () => {
    const bin = join(await builtBins(), 'cli/oz.js');
    const env = Object.fromEntries(Object.entries(process.env).filter(([name, value]) => !name.startsWith('OZ_') && value !== undefined)) as Record<
      string,
      string
    >;
    const terminal = spawn(process.execPath, [bin, 'tools', 'execute', 'echo', '--text', 'in a terminal', '--wait', '--format', 'text'], {
      cols: 120,
      rows: 20,
      env: { ...env, OZ_BASE_URL: mock.url, OZ_API_KEY: mock.apiKey, OZ_CONFIG_DIR: config.path },
    });
    let screen = '';
    terminal.onData((data) => (screen += data));
    const code = await new Promise<number>((resolve) => terminal.onExit(({ exitCode }) => resolve(exitCode)));
    expect(code).toBe(0);
    const frames = [...screen.matchAll(/\r\x1b\[2K(exe_\w+) (queued|running|succeeded) · (\d+) polls? · (\d+\.\d)s/g)];
    expect(frames.length).toBeGreaterThanOrEqual(2);
    expect(frames.map((f) => Number(f[3]))).toEqual(frames.map((_, i) => i + 1));
    expect(frames.some((f) => f[2] === 'queued' || f[2] === 'running')).toBe(true);
    // Cleared, then the result on its own line.
    expect(screen).toMatch(/\r\x1b\[2Kin a terminal\r?\n$/);
  });
});
