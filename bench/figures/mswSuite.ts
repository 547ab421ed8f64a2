/**
 * The msw suite (issue 47, point 8): the same vitest suite of 24 files x 10 tests (`tools.execute` +
 * `items.create`), generated into a folder of its own at run time, once through `setupServer(...server.handlers())`
 * of the embedded server and once through hand-written msw handlers answering the same JSON. Whole vitest runs (the
 * repository's vitest CLI in a child process, one worker as on this machine) alternate, each timed in wall time;
 * the row is the median of the per-round ratios.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median, quartiles } from '../latencyComparison.js';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatSpread, judged, type FigureRow } from '../figureRow.js';
import { SUITE_ITEM_BODY, writeSuites, type SuiteSource } from '../mswSuiteFiles.js';

const TARGET = 1.15;
const FILES = 24;
const TESTS = 10;
// A whole run takes 12-14 s here (two cores shared): three rounds of both stay within ~90 s.
const ROUNDS = 3;

/** The JSON the embedded server answers to the suite's two calls, for the hand-written handlers to hold. */
async function serverAnswers(ctx: FigureContext): Promise<Pick<SuiteSource, 'toolAnswer' | 'itemAnswer'>> {
  const server = ctx.modules.testing.createOzServer();
  try {
    const post = async (path: string, body: unknown, status: number): Promise<unknown> => {
      const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
      const response = await server.fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (response.status !== status) throw new Error(`POST ${path} answered ${response.status}, not ${status}`);
      return response.json();
    };
    return {
      toolAnswer: await post('/v1/tools/echo/execute', { text: 'hello' }, 200),
      itemAnswer: await post('/v1/companies/acme/items', SUITE_ITEM_BODY, 201),
    };
  } finally {
    await server.close();
  }
}

/** This process's environment without what a vitest around it set (the bench smoke test runs under vitest). */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1' };
  for (const [name, value] of Object.entries(process.env)) if (!/^(VITEST|TEST$|NODE_ENV$|CI$)/.test(name)) env[name] = value;
  return env;
}

/** Wall milliseconds of one whole `vitest run` of `config`; throws unless every one of `tests` tests passed. */
function vitestRunMs(root: string, config: string, tests: number): Promise<number> {
  const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vitest, 'run', '--config', config], { cwd: root, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const elapsed = performance.now() - start;
      if (code === 0 && new RegExp(`Tests\\s+${tests} passed`).test(output)) resolve(elapsed);
      else reject(new Error(`vitest run of ${config} exited ${code}:\n${output.slice(-2000)}`));
    });
  });
}

export async function mswSuiteRows(ctx: FigureContext): Promise<FigureRow[]> {
  const cache = join(ctx.root, 'node_modules', '.cache', 'oz-bench');
  mkdirSync(cache, { recursive: true });
  // Under the repository's node_modules, so the generated files find vitest and msw as a user's suite does.
  const dir = mkdtempSync(join(cache, 'msw-suite-'));
  try {
    const files = ctx.mode.smoke ? 2 : FILES;
    const tests = ctx.mode.smoke ? 2 : TESTS;
    const source: SuiteSource = { indexUrl: pathToFileURL(ctx.pkg.indexFile).href, testingUrl: ctx.pkg.testingSpecifier, ...(await serverAnswers(ctx)) };
    const configs = writeSuites(dir, source, files, tests);
    const run = (handlers: 'mount' | 'hand') => vitestRunMs(ctx.root, configs[handlers], files * tests);
    ctx.log(`msw suite: ${files} files x ${tests} tests, whole vitest runs through server.handlers() vs hand-written handlers`);
    const hand: number[] = [];
    const mount: number[] = [];
    const rounds = ctx.mode.smoke ? 1 : ROUNDS;
    for (let round = 0; round < rounds; round++) {
      // Who goes first swaps each round, so a first run's cold caches and the machine's drift fall on both sides.
      if (round % 2 === 0) hand.push(await run('hand'));
      mount.push(await run('mount'));
      if (round % 2 === 1) hand.push(await run('hand'));
    }
    const ratios = mount.map((ms, i) => ms / hand[i]!);
    const ratio = median(ratios);
    const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    return [
      {
        name: FIGURE_NAMES.mswSuite,
        ours: seconds(median(mount)),
        anchor: `hand-written msw handlers ${seconds(median(hand))}`,
        result: formatSpread(ratio, quartiles(ratios)),
        target: `<= ${TARGET.toFixed(2)}x`,
        met: judged(ctx.mode.smoke, ratio <= TARGET),
        how: `a vitest suite of ${files} files x ${tests} tests (each oz.tools.execute('echo') + oz.companies.items.create), generated at run time, each file with its own setupServer: setupServer(...createOzServer().handlers()) vs http.post handlers answering the same JSON; whole \`vitest run\` (the repository's vitest, one worker, files isolated) in a child process, alternating (who goes first swaps each round); ${rounds} rounds, median of per-round ratios; wall time`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
