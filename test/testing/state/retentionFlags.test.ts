import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = ['--import', 'tsx', 'src/testing/cli.ts'];
let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe('oz-mock retention flags', () => {
  it('--keep-executions bounds the finished executions kept and --journal-limit the journal', async () => {
    child = spawn(process.execPath, [...CLI, '--port', '0', '--json', '--keep-executions', '2', '--journal-limit', '5'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(child.stdout!, 'data')) as [Buffer];
    const { url, apiKey } = JSON.parse(line.toString()) as { url: string; apiKey: string };
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${url}/v1/tools/echo/execute`, { method: 'POST', headers, body: JSON.stringify({ text: `r${i}` }) });
      ids.push(((await res.json()) as { execution_id: string }).execution_id);
    }
    const list = (await (await fetch(`${url}/v1/executions`, { headers })).json()) as { data: Array<{ id: string }> };
    expect(list.data.map((e) => e.id)).toEqual([ids[3], ids[2]]);
    expect((await fetch(`${url}/v1/executions/${ids[0]}`, { headers })).status).toBe(404);
    child.kill('SIGTERM');
    await once(child, 'exit');
  });

  it('exits 2 naming the flag for a value that is not a whole number or all', async () => {
    for (const [flag, value] of [
      ['--keep-executions', '-1'],
      ['--keep-items', 'many'],
      ['--journal-limit', '1.5'],
    ]) {
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        execFile(process.execPath, [...CLI, `${flag}=${value}`], { cwd: root }, (err, _stdout, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr }),
        );
      });
      expect([result.code, result.stderr]).toEqual([2, expect.stringContaining(`${flag} must be a whole number >= 0, or all`)]);
    }
  });
});
