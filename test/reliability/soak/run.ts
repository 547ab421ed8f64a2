/**
 * `npm run soak` (`node --import tsx test/reliability/soak/run.ts [--calls N] [--duration SECONDS]
 * [--clients N] [--concurrency N] [--fault-rate P] [--seed N] [--no-hostile]`): the fault soak, bounded, with its
 * figures printed, with the hostile client (`hostileClient.ts`) and the hostile server (`hostileServer.ts`) beside the honest ones unless `--no-hostile`. Exits 1 when a call was lost, ran twice, threw an untyped error, or an answer broke openapi.json.
 */
import { parseArgs } from 'node:util';
import { runSoak } from './soak.js';

const { values } = parseArgs({
  options: {
    calls: { type: 'string' },
    duration: { type: 'string' },
    clients: { type: 'string' },
    concurrency: { type: 'string' },
    'fault-rate': { type: 'string' },
    seed: { type: 'string' },
    'no-hostile': { type: 'boolean' },
  },
});
const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
const duration = num(values.duration) ?? 180;
const figures = await runSoak({
  calls: num(values.calls) ?? Number.MAX_SAFE_INTEGER,
  durationMs: duration * 1000,
  clients: num(values.clients),
  concurrency: num(values.concurrency),
  faultRate: num(values['fault-rate']),
  seed: num(values.seed),
  hostile: values['no-hostile'] !== true,
});
const { problems, ...shown } = figures;
console.log(JSON.stringify(shown, null, 2));
for (const p of problems.slice(0, 30)) console.log(`problem: ${p}`);
const bad =
  figures.lost +
  figures.doubled +
  figures.untypedErrors +
  figures.violations +
  figures.mismatched +
  (figures.hostile?.unexpected ?? 0) +
  (figures.hostileServer?.unexpected ?? 0);
console.log(bad === 0 ? 'soak: OK (lost 0, doubled 0)' : 'soak: FAILED');
process.exitCode = bad === 0 ? 0 : 1;
