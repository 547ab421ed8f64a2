/**
 * A `scaleWorker.ts` process of one kind and size, kept alive so that a figure can ask it for rounds while another
 * size's worker lives beside it (rounds alternate between them: load on a shared machine hits both alike).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { WorkerReady } from './scaleWorker.js';

const WORKER = fileURLToPath(new URL('./scaleWorker.ts', import.meta.url));

/** A live worker: what it said when ready, a way to ask it, and its end. */
export interface ScaleWorker<Q, A> extends WorkerReady {
  ask(query: Q): Promise<A>;
  stop(): Promise<void>;
}

/** Starts `bench/scaleWorker.ts <kind> <testing> <count>` and waits until it holds its records. */
export async function startScaleWorker<Q extends object, A>(
  testingSpecifier: string,
  kind: 'lists' | 'snapshot' | 'idle',
  count: number,
): Promise<ScaleWorker<Q, A>> {
  const child = spawn(process.execPath, ['--max-old-space-size=8192', '--expose-gc', '--import', 'tsx', WORKER, kind, testingSpecifier, String(count)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pending = new Map<number, { resolve: (answer: A) => void; reject: (error: Error) => void }>();
  let asked = 0;
  const ready = await new Promise<WorkerReady>((resolve, reject) => {
    child.on('message', (message: { ready?: WorkerReady; id?: number }) => {
      if (message.ready) resolve(message.ready);
      else if (message.id !== undefined) {
        pending.get(message.id)?.resolve(message as A);
        pending.delete(message.id);
      }
    });
    child.once('exit', (code) => {
      const error = new Error(`scale worker ${kind} ${count} exited with ${code}`);
      reject(error);
      for (const waiter of pending.values()) waiter.reject(error);
    });
  });
  return {
    ...ready,
    ask: (query) =>
      new Promise<A>((resolve, reject) => {
        const id = ++asked;
        pending.set(id, { resolve, reject });
        child.send({ ...query, id });
      }),
    async stop() {
      if (child.connected) child.disconnect();
      await exited;
    },
  };
}

/**
 * `rounds` rounds over `workers`, each asked once a round; the order rotates from round to round (each worker
 * goes first as often as the others). Answers each worker's answers, in round order.
 */
export async function alternateRounds<Q extends object, A>(workers: ReadonlyArray<ScaleWorker<Q, A>>, rounds: number, query: Q): Promise<A[][]> {
  const out = workers.map((): A[] => []);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < workers.length; k++) {
      const w = (round + k) % workers.length;
      out[w]!.push(await workers[w]!.ask(query));
    }
  }
  return out;
}
