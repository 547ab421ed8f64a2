/**
 * A global setup for the parallel-workers run: a tiny HTTP barrier every test file waits at before its tests, so
 * the four workers really run at the same time (on a loaded machine their start-up could otherwise keep them
 * apart).
 */
import { createServer } from 'node:http';

export default async function setup(): Promise<() => Promise<void>> {
  const parties = Number(process.env.OZ_PARALLEL_FILES ?? 4);
  const waiting: Array<() => void> = [];
  const server = createServer((_, res) => {
    waiting.push(() => res.end('go'));
    if (waiting.length >= parties) for (const release of waiting.splice(0)) release();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  // The workers start after the global setup and inherit its environment.
  process.env.OZ_PARALLEL_BARRIER = `http://127.0.0.1:${address.port}/`;
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
