/**
 * One oz-mock, four parallel vitest workers (a nested run: parallel/vitest.config.ts), each test file with a
 * session of its own and a reset before every test: three runs in a row, no failure. The same files sharing the
 * one server fail (so this test can fail): the other workers' resets and requests reach them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'oz-parallel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Report {
  numTotalTests: number;
  numFailedTests: number;
  numPassedTests: number;
}

function nestedRun(name: string, env: Record<string, string>): Report {
  const outputFile = join(dir, `${name}.json`);
  // The nested run is a run of its own: none of this run's worker variables.
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'TEST'));
  const run = spawnSync(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/testing/sessions/parallel/vitest.config.ts', '--reporter=json', `--outputFile=${outputFile}`],
    {
      cwd: root,
      env: { ...clean, ...env },
      encoding: 'utf8',
      timeout: 240_000,
    },
  );
  let report: Report;
  try {
    report = JSON.parse(readFileSync(outputFile, 'utf8')) as Report;
  } catch {
    throw new Error(`the nested run ${name} wrote no report (exit ${run.status}):\n${run.stderr.slice(-2000)}`);
  }
  return report;
}

describe('four parallel workers on one oz-mock', () => {
  it('with a session per file, resetting before every test: 0 failures, three runs in a row', { timeout: 600_000 }, () => {
    for (const [i, pool] of (['threads', 'forks', 'threads'] as const).entries()) {
      const report = nestedRun(`sessions-${i}`, { OZ_PARALLEL_POOL: pool });
      expect({ run: i, pool, total: report.numTotalTests, failed: report.numFailedTests }).toEqual({ run: i, pool, total: 32, failed: 0 });
    }
  });

  it('sharing the one server instead, the same files interfere', { timeout: 300_000 }, () => {
    const report = nestedRun('shared', { OZ_PARALLEL_SHARED: '1' });
    expect(report.numTotalTests).toBe(32);
    expect(report.numFailedTests).toBeGreaterThan(0);
  });
});
