/**
 * `oz-mock parity`: the suite is derived from openapi.json (an operation without a scenario fails here), a plain
 * oz-mock is the same as the reference (exit 0), one made to differ through its control plane is named difference
 * by difference (exit 1), a delay is no difference, and the exit codes of a usage error (2) and an unreachable
 * target (3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_OPERATIONS } from '../../../src/testing/contract/operations.js';
import { paritySuite, unplannedParameters } from '../../../src/testing/parity/scenarios.js';
import type { ParityReport } from '../../../src/testing/parity/parityRun.js';
import { spawnOzMock, startOzMock, type SpawnedOzMock, type StartLine } from '../control/spawnOzMock.js';

async function parity(args: readonly string[]): Promise<{ code: number | null; output: string }> {
  // Keys come from the flags alone: an OZ_API_KEY of the environment would hide the usage error of a missing one.
  const run = spawnOzMock(['parity', ...args], { OZ_API_KEY: '', OZ_MOCK_API_KEY: '' });
  const { code } = await run.exit;
  return { code, output: run.output() };
}

describe('the parity suite', () => {
  it('has a scenario for every operation of openapi.json and a way to fill every path parameter', () => {
    const covered = new Set(paritySuite().map((s) => s.operationId));
    expect(SERVER_OPERATIONS.filter((op) => !covered.has(op.id)).map((op) => op.id)).toEqual([]);
    expect(unplannedParameters()).toEqual([]);
  });

  it('has unique scenario ids, and the behaviours the contract names', () => {
    const suite = paritySuite();
    expect(new Set(suite.map((s) => s.id)).size).toBe(suite.length);
    const behaviours = new Set(suite.map((s) => s.behaviour));
    for (const b of [
      'success',
      'no-key',
      'unknown-name',
      'missing-field',
      'unknown-format',
      'wire:json',
      'wire:yaml',
      'wire:markdown',
      'wire:text',
      'stream',
      'async',
      'async-wait',
      'replay',
    ])
      expect(behaviours).toContain(b);
  });
});

describe('oz-mock parity against oz-mock processes', () => {
  let target: SpawnedOzMock;
  let line: StartLine;

  beforeAll(async () => {
    ({ mock: target, line } = await startOzMock([]));
  }, 60_000);
  afterAll(async () => {
    await target?.stop();
  });

  it('finds a plain oz-mock the same as the reference: exit 0, every operation compared or skipped with a reason', async () => {
    const { code, output } = await parity(['--target', line.url, '--api-key', line.apiKey!, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(output) as ParityReport;
    expect(report.summary.different).toBe(0);
    expect(report.target).toBe(line.url);
    for (const s of report.scenarios) if (s.status === 'skipped') expect(s.reason).toMatch(/\S/);
    expect(report.coverage.map((c) => c.operationId).sort()).toEqual(SERVER_OPERATIONS.map((op) => op.id).sort());
    for (const c of report.coverage) expect(Object.keys(c.behaviours).length).toBeGreaterThan(0);
    expect(report.summary.same + report.summary.skipped).toBe(report.scenarios.length);
  }, 180_000);

  it('names each difference of an oz-mock made to differ by operationId, status and JSON path, and takes a delay for no difference', async () => {
    const control = (path: string, body: unknown) =>
      fetch(`${line.url}/_oz${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${line.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => {
        expect(r.status).toBe(201);
      });
    const card = (await (await fetch(`${line.url}/v1/tools/echo`, { headers: { authorization: `Bearer ${line.apiKey}` } })).json()) as Record<string, unknown>;
    await control('/stubs', {
      operationId: 'getTool',
      match: { path: { tool: 'echo' } },
      answer: { status: 200, body: { ...card, name: 42 } },
      unchecked: true,
    });
    await control('/stubs', { operationId: 'getSchedule', answer: { status: 404, body: { error: { code: 'not_found', message: 'No such schedule.' } } } });
    await control('/faults', { type: 'delay', ms: 20, operationId: 'listTools', times: 1000 });

    const { code, output } = await parity(['--target', line.url, '--api-key', line.apiKey!]);
    expect(code).toBe(1);
    expect(output).toMatch(/^getTool:success different$/m);
    expect(output).toContain('  getTool 200 $.name: "echo" ≠ 42\n');
    expect(output).toMatch(/^getSchedule:unknown-name different$/m);
    expect(output).toContain('  getSchedule 404 $.error.code: "schedule_not_found" ≠ "not_found"\n');
    expect(output).toContain('  getSchedule 404 headers.x-error-code: "schedule_not_found" ≠ "not_found"\n');
    expect(output).toContain('  getSchedule 200 status: 200 ≠ 404\n');
    expect(output).toMatch(/^listTools:success same$/m);
    expect(output).toMatch(/^listTools:no-key same$/m);
    expect(output).toMatch(/^\d+ same, [1-9]\d* different, 0 skipped$/m);
  }, 180_000);

  it('takes another oz-mock as the reference with --against (the one made to differ, now on the reference side)', async () => {
    const { mock: plain, line: plainLine } = await startOzMock([]);
    try {
      const { code, output } = await parity(['--target', plainLine.url, '--api-key', plainLine.apiKey!, '--against', line.url, '--against-key', line.apiKey!]);
      expect(code).toBe(1);
      expect(output).toContain(`oz-mock parity: ${plainLine.url} against ${line.url}\n`);
      expect(output).toContain('  getTool 200 $.name: 42 ≠ "echo"\n');
    } finally {
      await plain.stop();
    }
  }, 180_000);

  it('exits 3 when the target cannot be reached, 2 on a usage error', async () => {
    const gone = await parity(['--target', 'http://127.0.0.1:9', '--api-key', 'ozk_x']);
    expect(gone.code).toBe(3);
    expect(gone.output).toMatch(/^oz-mock parity: http:\/\/127\.0\.0\.1:9 could not be reached/m);
    const usage = await parity(['--api-key', 'ozk_x']);
    expect(usage.code).toBe(2);
    expect(usage.output).toContain('--target URL is required');
    const badUrl = await parity(['--target', 'nowhere', '--api-key', 'ozk_x']);
    expect(badUrl.code).toBe(2);
    const noKey = await parity(['--target', line.url]);
    expect(noKey.code).toBe(2);
  }, 120_000);
});
