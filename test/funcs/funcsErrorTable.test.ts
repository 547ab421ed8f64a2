/**
 * The error classes of a program that imports only `oz-sdk/funcs` (bundled, tree-shaken, code splitting on, as an
 * application ships it): none is in its first chunk; `OzCore` loads them all (the table of every code) with its
 * first error answer, run or stream, so every code gets its class, as from the `Oz` client.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'oz-funcs-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bundles `program` (which imports from oz-sdk/funcs as `FUNCS`) and runs it: its printed lines. */
async function run(name: string, program: string): Promise<string[]> {
  const entry = join(dir, `${name}.ts`);
  writeFileSync(entry, program.replace('FUNCS', JSON.stringify(join(root, 'src/funcs/index.ts'))));
  const outdir = join(dir, name);
  await build({ entryPoints: [entry], bundle: true, splitting: true, format: 'esm', platform: 'node', outdir, logLevel: 'silent' });
  return execFileSync(process.execPath, [join(outdir, `${name}.js`)], { encoding: 'utf8' })
    .trim()
    .split('\n');
}

const ANSWERS = `
const json = (status, body, headers = {}) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const failure = (status, code) => json(status, { error: { code, message: 'no' } }, { 'x-error-code': code });
const options = { apiKey: 'ozk_' + 'a'.repeat(32), baseURL: 'http://127.0.0.1:9', logLevel: 'off', maxRetries: 0 };
const show = (e) => console.log(e.name, e.status, e.code);
`;

describe('a bundled program that imports only standalone functions', () => {
  it("throws every code's class: a run's end through wait() before any error answer, then error answers of any code", async () => {
    const lines = await run(
      'errors',
      `import { OzCore, toolsExecute, toolsGet } from FUNCS;
${ANSWERS}
const answers = [
  json(202, { execution_id: 'exe_1', workflow_id: null, task_id: null, status: 'queued' }),
  json(200, { id: 'exe_1', kind: 'tool', status: 'failed', content: null, error: { code: 'agent_not_found', message: 'gone' }, workflow_id: null, task_id: null }),
  failure(404, 'tool_not_found'),
  failure(403, 'forbidden_host'),
];
const core = new OzCore({ ...options, fetch: async () => answers.shift() });
const pointer = await toolsExecute(core, 'echo', { params: {}, async: true });
await pointer.wait({ interval: 1 }).catch(show);
await toolsGet(core, 'nope').catch(show);
await toolsGet(core, 'echo').catch(show);
`,
    );
    expect(lines).toEqual([
      // The run's failed record: the classes came with the execution poller.
      'AgentNotFoundError 404 agent_not_found',
      'ToolNotFoundError 404 tool_not_found',
      // forbidden_host is not among getTool's documented codes: still its own class, as from Oz.
      'ForbiddenHostError 403 forbidden_host',
    ]);
  });

  it("gives the same classes as the Oz client (every code's class) when the program also imports oz-sdk", async () => {
    const lines = await run(
      'withOz',
      `import { OzCore, toolsGet } from FUNCS;
import { ForbiddenHostError } from ${JSON.stringify(join(root, 'src/index.ts'))};
${ANSWERS}
const core = new OzCore({ ...options, fetch: async () => failure(403, 'forbidden_host') });
await toolsGet(core, 'echo').catch((e) => console.log(e instanceof ForbiddenHostError, e.name));
`,
    );
    expect(lines).toEqual(['true ForbiddenHostError']);
  });
});
