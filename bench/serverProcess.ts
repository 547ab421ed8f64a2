import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchServerReady } from './benchServer.js';

/** A bench server running in a child process (see `benchServer.ts`). */
export interface ServerProcess extends BenchServerReady {
  readonly pid: number;
  /** Closes the IPC channel: the child closes its server and exits. Killed if it has not after 5 s. */
  stop(): Promise<void>;
}

const ENTRY = fileURLToPath(new URL('./benchServer.ts', import.meta.url));

/**
 * Starts `benchServer.ts <kind>` and waits until it listens (at most 30 s). The embedded server comes from the
 * built `oz-sdk/testing` at `testingSpecifier`.
 */
export async function startServerProcess(kind: 'oz' | 'hono', testingSpecifier = ''): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', ENTRY, kind, testingSpecifier], {
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
  return {
    ...ready,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.disconnect();
      const timer = setTimeout(() => child.kill(), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
