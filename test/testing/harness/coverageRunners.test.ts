/**
 * The coverage gate in real runs: a tiny suite (coverageRunners/gate.vitest.ts, coverageRunners/gate.jest.ts)
 * whose `afterAll` calls `expectCoverage()` fails the vitest run and the jest run, naming the missed responses,
 * and passes both when the suite covers them (`OZ_GATE_COVER=1`).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const DIR = 'test/testing/harness/coverageRunners';

const RUNNERS = {
  vitest: ['node_modules/vitest/vitest.mjs', 'run', '--config', `${DIR}/vitest.config.mts`],
  jest: ['node_modules/jest/bin/jest.js', '--ci', '--config', `${DIR}/jest.config.cjs`],
} as const;

/** This process's environment without what makes a child vitest think it runs inside this one. */
function childEnv(cover: boolean): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS' && k !== 'OZ_GATE_COVER'));
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1', ...(cover ? { OZ_GATE_COVER: '1' } : {}) };
}

function run(runner: keyof typeof RUNNERS, cover: boolean): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...RUNNERS[runner]], { cwd: ROOT, env: childEnv(cover), timeout: 150_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

describe.each(['vitest', 'jest'] as const)('expectCoverage under %s', (runner) => {
  it('fails the run naming the missed responses, and passes it once they are covered', { timeout: 300_000 }, async () => {
    const missed = await run(runner, false);
    expect(missed.code, missed.output).toBe(1);
    expect(missed.output).toContain('OzCoverageError: Required responses no request got:');
    expect(missed.output).toMatch(/\n\s+executeTool 424 connection_required\n\s+getTool 404 tool_not_found\n/);
    expect(missed.output).not.toMatch(/\s+listTools 200\n/);
    const covered = await run(runner, true);
    expect(covered.code, covered.output).toBe(0);
    expect(covered.output).not.toContain('OzCoverageError');
  });
});
