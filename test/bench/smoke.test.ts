/**
 * The benchmarks' smoke run (`bench/run.ts --smoke`): every benchmark starts with tiny counts and prints its row.
 * Only that it runs is checked, never a number (speed is for `npm run bench`, not for tests).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIGURE_NAMES } from '../../bench/figureNames.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function runSmoke(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--smoke'], {
      cwd: root,
      env: { ...process.env, BENCH_SMOKE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run bench -- --smoke', () => {
  it('runs every benchmark and prints a row for each figure', async () => {
    const { code, stdout, stderr } = await runSmoke();
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('smoke: tiny counts, not a measurement');
    for (const name of Object.values(FIGURE_NAMES)) expect(stdout, `row "${name}"`).toContain(name);
    expect(stdout).not.toContain('Failed:');
  }, 300_000);
});
