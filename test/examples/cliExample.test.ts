/**
 * examples/cli.sh, the source of the command-line blocks of README.md and docs/cli.md: run with the built `oz` on
 * PATH against the built oz-mock, every command as a reader would type it.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtBins } from '../cli/support/builtCli.js';
import { startMock, type MockServer } from '../cli/support/ozProcess.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let mock: MockServer;
let dir: string;

beforeAll(async () => {
  mock = await startMock();
  dir = mkdtempSync(join(tmpdir(), 'oz-example-'));
  // `oz` as npm links it: a command on PATH that runs the built bin.
  writeFileSync(join(dir, 'oz'), `#!/bin/sh\nexec "${process.execPath}" "${join(await builtBins(), 'cli/oz.js')}" "$@"\n`);
  chmodSync(join(dir, 'oz'), 0o755);
}, 60_000);

afterAll(async () => {
  await mock?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('examples/cli.sh', () => {
  it('runs every command of the pages', { timeout: 120_000 }, async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OZ_')));
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        'bash',
        ['examples/cli.sh'],
        { cwd: ROOT, env: { ...env, PATH: `${dir}:${process.env.PATH}`, OZ_BASE_URL: mock.url, OZ_API_KEY: mock.apiKey, OZ_CONFIG_DIR: dir } },
        (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
      );
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/"title":"Ship it"/);
    // Piped, each answer is its bytes as they came: no newline is added after the item's JSON or the text.
    expect(run.stdout).toMatch(/"updated_at":"[^"]+"\}hello(?=Here is a draft for: a haiku$)/m);
    expect(run.stdout).toMatch(/^content: \|-\n {2}from JSON$/m);
    expect(run.stdout).toMatch(/^from YAML$/m);
    expect(run.stdout).toMatch(/Here is a draft for: a haiku$/m); // tokens as they arrive, then a newline
    expect(run.stdout).toMatch(/^later$/m);
    expect(run.stdout).toMatch(/^exit 1\nexit 2\nexit 2$/m);
    expect(run.stderr).toContain('"code":"tool_not_found"');
    expect(run.stderr).toContain('Did you mean oz tools list?');
  });
});
