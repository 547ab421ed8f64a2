/**
 * Leaving a stream early releases everything at once: a program that aborts its stream's signal between two reads
 * (and reads no more), or breaks out of its loop, exits by itself, as soon as its last line ran. Each runs in a
 * process of its own (support/streamLeftEarly.ts), against the embedded server over real HTTP.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOzServer } from '../../../src/testing/index.js';

const program = fileURLToPath(new URL('../support/streamLeftEarly.ts', import.meta.url));
// Far below the stream's 5-minute idle timeout, far above a process start: a child still alive then was held.
const OUTER_KILL_MS = 60_000;

interface Outcome {
  readonly code: number | null;
  readonly killed: boolean;
  readonly report: { resources: string[]; aborted: boolean; executionId?: string; streamExecutionId: string | null };
}

function run(url: string, apiKey: string, how: 'abort' | 'break'): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', program, url, apiKey, how], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let killed = false;
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, OUTER_KILL_MS);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      try {
        resolve({ code, killed, report: JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Outcome['report'] });
      } catch (error) {
        reject(new Error(`no report from the child (code ${code}): ${out}`, { cause: error }));
      }
    });
  });
}

describe('a stream left early', () => {
  const server = createOzServer();
  let listener: Awaited<ReturnType<typeof server.listen>>;
  beforeAll(async () => {
    listener = await server.listen();
  });
  afterAll(async () => {
    await listener.close();
    await server.close();
  });

  it(
    'aborted between two reads: no timer is left, the process exits by itself, and OzAbortError names the run',
    async () => {
      const { code, killed, report } = await run(listener.url, server.apiKey, 'abort');
      expect(killed).toBe(false);
      expect(code).toBe(0);
      expect(report.resources).not.toContain('Timeout');
      expect(report.aborted).toBe(true);
      expect(report.streamExecutionId).toMatch(/./);
      expect(report.executionId).toBe(report.streamExecutionId);
    },
    OUTER_KILL_MS + 10_000,
  );

  it(
    'broken out of its loop: no timer is left and the process exits by itself',
    async () => {
      const { code, killed, report } = await run(listener.url, server.apiKey, 'break');
      expect(killed).toBe(false);
      expect(code).toBe(0);
      expect(report.resources).not.toContain('Timeout');
    },
    OUTER_KILL_MS + 10_000,
  );
});
