/**
 * The embedded server's first call. In a new Node process (Node's own Request and Response already used once):
 * `createOzServer()` from the built package, `POST /v1/tools/echo/execute` (its body checked by the generated
 * validators) handed to `server.handle` once (the first call), then `WARM_CALLS` times (the warm call is their
 * median); then a second `createOzServer()` in the same process and its first call. Two rows: a new server (what
 * every test that creates one sees) and a new process (which also runs the call's code for the first time).
 * Before the validators were generated, the first call of a process compiled them (61-108 ms).
 */
import { spawnSync } from 'node:child_process';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatMs, formatRatio, judged, type FigureRow } from '../figureRow.js';
import { median } from '../latencyComparison.js';

const LIMIT = 2;
const WARM_CALLS = 50;

function script(testingSpecifier: string): string {
  return `
// Node's own Request and Response set themselves up on first use (tens of milliseconds): done before, as every
// program that made one request has, so the first call measures the server.
await new Request('http://127.0.0.1/', { method: 'POST', body: '{}' }).json();
await new Response('{}').json();
const { createOzServer } = await import(${JSON.stringify(testingSpecifier)});
const time = async (server) => {
  const started = performance.now();
  const response = await server.handle(new Request(server.url + '/v1/tools/echo/execute', {
    method: 'POST',
    headers: { authorization: 'Bearer ' + server.apiKey, 'content-type': 'application/json', accept: 'application/json' },
    body: '{"text":"hello"}',
  }));
  if (response.status !== 200) throw new Error('answered ' + response.status);
  await response.json();
  return performance.now() - started;
};
const server = createOzServer({ rateLimit: { limit: 1e9 } });
const first = await time(server);
const warm = [];
for (let i = 0; i < ${WARM_CALLS}; i++) warm.push(await time(server));
warm.sort((a, b) => a - b);
const second = createOzServer({ rateLimit: { limit: 1e9 } });
const secondFirst = await time(second);
await server.close();
await second.close();
process.stdout.write(JSON.stringify({ first, warm: warm[warm.length >> 1], secondFirst }));
`;
}

export async function serverFirstCallRows(ctx: FigureContext): Promise<FigureRow[]> {
  ctx.log(`server first call: ${ctx.mode.coldRuns} new processes, createOzServer() then the first and ${WARM_CALLS} warm tools.execute`);
  const runs: { first: number; warm: number; secondFirst: number }[] = [];
  for (let run = 0; run < ctx.mode.coldRuns; run++) {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script(ctx.pkg.testingSpecifier)], {
      cwd: ctx.root,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    });
    if (child.status !== 0) throw new Error(`server first call process failed (${child.status}): ${child.stderr}`);
    runs.push(JSON.parse(child.stdout) as { first: number; warm: number; secondFirst: number });
  }
  const first = median(runs.map((r) => r.first));
  const warm = median(runs.map((r) => r.warm));
  const secondFirst = median(runs.map((r) => r.secondFirst));
  const ratio = median(runs.map((r) => r.first / r.warm));
  const secondRatio = median(runs.map((r) => r.secondFirst / r.warm));
  const how = `a new Node process per run (Node's Request/Response used once before): createOzServer(), server.handle(POST /v1/tools/echo/execute) once, then ${WARM_CALLS} times (the warm call: their median); then a second createOzServer() in that process and its first call; ${ctx.mode.coldRuns} processes, median of per-process ratios`;
  return [
    {
      name: FIGURE_NAMES.serverFirstCall,
      ours: `first call ${formatMs(secondFirst)}`,
      anchor: `warm call ${formatMs(warm)}`,
      result: formatRatio(secondRatio),
      target: `<= ${LIMIT.toFixed(2)}x`,
      met: judged(ctx.mode.smoke, secondRatio <= LIMIT),
      how: `${how}: the second server's first call`,
    },
    {
      name: FIGURE_NAMES.serverFirstCallNewProcess,
      ours: `first call ${formatMs(first)}`,
      anchor: `warm call ${formatMs(warm)}`,
      result: formatRatio(ratio),
      target: `<= ${LIMIT.toFixed(2)}x`,
      met: judged(ctx.mode.smoke, ratio <= LIMIT),
      how: `${how}: the first server's first call, which also runs the code of the call's path for the first time in the process (V8 compiles each function on its first run)`,
    },
  ];
}
