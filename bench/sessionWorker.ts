/**
 * What a session costs, in a process of its own (a fresh heap, `--expose-gc`): started by `figures/sessions.ts`,
 * prints one JSON line, {@link SessionRounds}.
 *
 *   node --expose-gc --import tsx bench/sessionWorker.ts <oz-sdk/testing URL> <rounds> <calls per round> <warm-up blocks>
 *
 * Three contenders: `server.session()` then `close()`; `session.reset()` after a test's worth of writes; and
 * `createOzServer()` then `close()`, what a test would do without sessions. After a warm-up (each contender's
 * code compiled and the heap at its working size), every round times `calls` calls of each contender, one after
 * the other, the order rotating from round to round, each after a forced GC (so that none pays for the garbage of
 * the one before it).
 */
type Testing = typeof import('../src/testing/index.js');

/** Each contender's mean time of one call, in ms, per round. */
export interface SessionRounds {
  readonly createEnd: number[];
  readonly reset: number[];
  readonly wholeServer: number[];
}

const [specifier, roundsText, callsText, warmUpText] = process.argv.slice(2);
const rounds = Number(roundsText);
const calls = Number(callsText);
const warmUpBlocks = Number(warmUpText);
const { createOzServer } = (await import(specifier!)) as Testing;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('sessionWorker needs node --expose-gc');

const server = createOzServer();
const session = server.session();
let accounts = 0;
const contenders: Record<keyof SessionRounds, () => unknown> = {
  createEnd: () => server.session().close(),
  // A reset after a test's worth of writes: an account and a fault.
  reset: () => {
    session.addAccount({ name: `acct_${++accounts}` });
    session.faults.add({ operationId: 'listTools', type: 'drop' });
    session.reset();
  },
  wholeServer: () => createOzServer().close(),
};
const names = Object.keys(contenders) as Array<keyof SessionRounds>;

/** The mean time of one call of `fn` over `n` calls, in ms. */
async function meanOf(n: number, fn: () => unknown): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i++) await fn();
  return (performance.now() - start) / n;
}

// Warm-up: blocks of `calls` calls of each contender in turn.
for (let block = 0; block < warmUpBlocks; block++) for (const name of names) await meanOf(calls, contenders[name]);

const out: SessionRounds = { createEnd: [], reset: [], wholeServer: [] };
for (let round = 0; round < rounds; round++) {
  for (let k = 0; k < names.length; k++) {
    const name = names[(round + k) % names.length]!;
    gc();
    out[name].push(await meanOf(calls, contenders[name]));
  }
}
await server.close();
process.stdout.write(`${JSON.stringify(out)}\n`);
