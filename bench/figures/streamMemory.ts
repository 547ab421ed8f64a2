/**
 * Memory while streaming 100 MB of deltas: runs `bench/streamMemory.ts` (written for this, kept as is) in a new
 * process and reads what it prints. The figure is the live heap's growth: the largest heap after a full GC at
 * each tenth of the stream, less the heap after a full GC before it. The sampled peak (garbage not yet
 * collected included) is shown beside it.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { judged, type FigureRow } from '../figureRow.js';

const LIMIT_MB = 20;

function runScript(ctx: FigureContext, megabytes: number): Promise<string> {
  const script = join(ctx.root, 'bench', 'streamMemory.ts');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', script, '--mb', String(megabytes)], {
      cwd: ctx.root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`streamMemory.ts exited with ${code}:\n${out}`))));
  });
}

function megabytesIn(line: string | undefined, what: string): number[] {
  if (!line) throw new Error(`streamMemory.ts printed no "${what}" line`);
  return [...line.slice(line.indexOf(':') + 1).matchAll(/(-?\d+(?:\.\d+)?) MB/g)].map((m) => Number(m[1]));
}

export async function streamMemoryRows(ctx: FigureContext): Promise<FigureRow[]> {
  const megabytes = ctx.mode.memoryMegabytes;
  ctx.log(`memory: ${megabytes} MB of deltas (bench/streamMemory.ts in a child process)`);
  const out = await runScript(ctx, megabytes);
  const lines = out.split('\n');
  const find = (label: string) => lines.find((line) => line.trimStart().startsWith(label));
  const [before] = megabytesIn(find('heap after GC, before'), 'heap after GC, before');
  const tenths = megabytesIn(find('heap after GC, per 10 %'), 'heap after GC, per 10 %');
  const [peak, peakAbove] = megabytesIn(find('peak heap'), 'peak heap');
  const time = find('time:')?.split(':').slice(1).join(':').trim() ?? '?';
  const growth = Math.max(...tenths) - before!;
  return [
    {
      name: FIGURE_NAMES.streamMemory,
      ours: `heap ${before!.toFixed(1)} MB before, at most ${Math.max(...tenths).toFixed(1)} MB during (after GC)`,
      anchor: '-',
      result: `+${growth.toFixed(1)} MB (sampled peak +${peakAbove?.toFixed(1)} MB, ${peak?.toFixed(1)} MB)`,
      target: `<= ${LIMIT_MB} MB`,
      met: judged(ctx.mode.smoke, growth <= LIMIT_MB),
      how: `${megabytes} MB of token deltas from a 127.0.0.1 server through Stream.textDeltas() with retainStreamText: false; ${time}`,
    },
  ];
}
