/**
 * oz-mock's single executable (`npm run build:binary`, built first when missing or stale). Its size against what
 * `npx oz-mock` needs on disk: the Node binary plus the built files the bin runs (every file of the build that
 * `testing/cli.js` reaches). Its start-up, from spawn to the `--json` line, against the built bin run by Node
 * (`node dist/testing/cli.js`) and against `npx oz-mock` in a project whose node_modules/.bin has the bin, as an
 * install gives it. Each start is stopped with SIGTERM before the next; rounds alternate the contenders' order.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import * as esbuild from 'esbuild';
import { ozMockBinary } from '../../scripts/binary/binaryFile.js';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatMs, formatRatio, judged, type FigureRow } from '../figureRow.js';
import { median } from '../latencyComparison.js';

/** The executable is Node's binary with the bundled bin inside: at most 5% more than Node and the package's files. */
const SIZE_LIMIT = 1.05;
/** One script with its code cache starts no slower than Node loading the build's modules. */
const START_LIMIT = 1.0;

interface Contender {
  readonly name: string;
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
}

/** Spawn to the `--json` line, in ms; then SIGTERM to the process group (npx's child would outlive npx), and the end. */
async function timeToJsonLine(c: Contender): Promise<number> {
  const started = performance.now();
  const child = spawn(c.file, [...c.args, '--port', '0', '--json'], { cwd: c.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const ms = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (/^\{.*\}$/m.test(out)) resolve(performance.now() - started);
    });
    void exited.then((code) => reject(new Error(`${c.name} exited (${code}) before its --json line: ${err}`)));
  });
  process.kill(-child.pid!, 'SIGTERM');
  // oz-mock exits 0; npm, signalled with its group, dies of the signal.
  const code = await exited;
  if (code !== 0 && code !== 'SIGTERM') throw new Error(`${c.name} ended with ${code} on SIGTERM: ${err}`);
  return ms;
}

/** The bytes of every built file `testing/cli.js` reaches (its chunks and lazy chunks), itself included. */
async function builtBinBytes(cliFile: string): Promise<number> {
  const result = await esbuild.build({
    entryPoints: [cliFile],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  return Object.values(result.metafile.inputs).reduce((sum, input) => sum + input.bytes, 0);
}

/** A project as `npm install oz-sdk` leaves it, as far as `npx oz-mock` looks: node_modules/.bin/oz-mock. */
function npxProject(cliFile: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'oz-bench-npx-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'oz-bench-npx', private: true }));
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
  symlinkSync(cliFile, join(dir, 'node_modules/.bin/oz-mock'));
  return dir;
}

/** Median start-up of each contender over `runs` rounds, the order alternating. */
async function startUps(contenders: readonly Contender[], runs: number): Promise<Map<string, number>> {
  for (const c of contenders) await timeToJsonLine(c);
  const times = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  for (let run = 0; run < runs; run++) {
    for (const c of run % 2 ? [...contenders].reverse() : contenders) times.get(c.name)!.push(await timeToJsonLine(c));
  }
  return new Map([...times].map(([name, ms]) => [name, median(ms)]));
}

export async function ozMockBinaryRows(ctx: FigureContext): Promise<FigureRow[]> {
  const binary = ozMockBinary(ctx.root, ctx.log);
  const cli = ctx.pkg.ozMockFile;
  const project = npxProject(cli);
  try {
    const contenders: Contender[] = [
      { name: 'binary', file: binary, args: [], cwd: project },
      { name: 'node', file: process.execPath, args: [cli], cwd: project },
      { name: 'npx', file: 'npx', args: ['--no-install', 'oz-mock'], cwd: project },
    ];
    ctx.log(`oz-mock binary: ${ctx.mode.coldRuns} starts each of ${contenders.map((c) => c.name).join(', ')} to the --json line`);
    const times = await startUps(contenders, ctx.mode.coldRuns);
    const [ours, node, npx] = [times.get('binary')!, times.get('node')!, times.get('npx')!];
    const [binaryBytes, nodeBytes, binBytes] = [statSync(binary).size, statSync(process.execPath).size, await builtBinBytes(cli)];
    const sizeRatio = binaryBytes / (nodeBytes + binBytes);
    const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
    const how = `median of ${ctx.mode.coldRuns} starts each, alternating, from spawn to the --json line (--port 0), each stopped with SIGTERM`;
    return [
      {
        name: FIGURE_NAMES.ozMockBinarySize,
        ours: mib(binaryBytes),
        anchor: `node ${mib(nodeBytes)} + bin ${(binBytes / 1024).toFixed(0)} kB`,
        result: formatRatio(sizeRatio),
        target: `<= ${SIZE_LIMIT.toFixed(2)}x`,
        met: judged(ctx.mode.smoke, sizeRatio <= SIZE_LIMIT),
        how: `${relative(ctx.root, binary)} against this Node's binary plus every built file ${relative(ctx.root, cli)} reaches (esbuild's metafile)`,
      },
      {
        name: FIGURE_NAMES.ozMockBinaryStartup,
        ours: formatMs(ours),
        anchor: `node ${relative(ctx.root, cli)} ${formatMs(node)}`,
        result: formatRatio(ours / node),
        target: `<= ${START_LIMIT.toFixed(2)}x`,
        met: judged(ctx.mode.smoke, ours / node <= START_LIMIT),
        how: `${how}: ${relative(ctx.root, binary)} against node ${relative(ctx.root, cli)}`,
      },
      {
        name: FIGURE_NAMES.ozMockBinaryStartupNpx,
        ours: formatMs(ours),
        anchor: `npx oz-mock ${formatMs(npx)}`,
        result: formatRatio(ours / npx),
        target: `<= ${START_LIMIT.toFixed(2)}x`,
        met: judged(ctx.mode.smoke, ours / npx <= START_LIMIT),
        how: `${how}: ${relative(ctx.root, binary)} against npx --no-install oz-mock in a project whose node_modules/.bin/oz-mock links the built bin`,
      },
    ];
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}
