import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchServerQuery, BenchServerReady } from './benchServer.js';

type Query = BenchServerQuery extends infer Q ? (Q extends BenchServerQuery ? Omit<Q, 'id'> : never) : never;

/** A bench server running in a child process (see `benchServer.ts`). */
export interface ServerProcess extends BenchServerReady {
  readonly pid: number;
  /** Closes the IPC channel: the child closes its server and exits. Killed if it has not after 5 s. */
  stop(): Promise<void>;
  /**
   * The CPU time the process has used (user + system), in ms, read from `/proc` (Linux: 10 ms ticks); `undefined`
   * where there is no `/proc`. The CPU a request costs moves less than a rate when other processes load the machine.
   */
  cpuMs(): number | undefined;
  /** Asks the embedded server's process (its journal, its memory after a full GC). */
  ask<T>(query: Query): Promise<T>;
}

const ENTRY = fileURLToPath(new URL('./benchServer.ts', import.meta.url));

/**
 * Starts `benchServer.ts <kind> <arg>` and waits until it listens (at most 30 s). The embedded server (`oz`,
 * `oz-stream`) comes from the built `oz-sdk/testing` at `arg`; the bare SSE server (`sse`) answers the events of
 * the file `arg`.
 */
export async function startServerProcess(kind: 'oz' | 'hono' | 'oz-stream' | 'sse', arg = ''): Promise<ServerProcess> {
  // --expose-gc: the memory figures read the heap after a full collection.
  const child: ChildProcess = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', ENTRY, kind, arg], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<BenchServerReady>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`bench server ${kind} did not start within 30 s`));
    }, 30_000);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve((message as { ready: BenchServerReady }).ready);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bench server ${kind} exited with ${code} before it listened`));
    });
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let asked = 0;
  const answers = new Map<number, (answer: unknown) => void>();
  child.on('message', (message: { id?: number; answer?: unknown }) => {
    if (message.id !== undefined) answers.get(message.id)?.(message.answer);
    if (message.id !== undefined) answers.delete(message.id);
  });
  return {
    ...ready,
    pid: child.pid!,
    cpuMs: () => processCpuMs(child.pid!),
    ask: <T>(query: Query) =>
      new Promise<T>((resolve) => {
        const id = ++asked;
        answers.set(id, resolve as (answer: unknown) => void);
        child.send({ ...query, id });
      }),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.disconnect();
      const timer = setTimeout(() => child.kill(), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Clock ticks per second of `/proc/<pid>/stat` (`getconf CLK_TCK`: 100 on Linux everywhere we run). */
const TICKS_PER_SECOND = 100;

function processCpuMs(pid: number): number | undefined {
  try {
    // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th of them.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
