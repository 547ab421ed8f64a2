import type { ServerClock } from '../time/clock.js';

/** One macrotask turn: the stream's bytes reach the client between two tokens, and a cancel is seen. */
function turn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * The wait between two tokens of a stream: `ms` of a running clock. On a frozen clock a stream does not wait for
 * the clock (nothing would advance it while the test reads the stream): the tokens go out one macrotask apart.
 */
export function paceToken(clock: ServerClock, ms: number): Promise<void> {
  return clock.frozen ? turn() : clock.sleep(ms);
}

/** Whether a streamed run is paced by the clock (its workflow steps): not on a frozen clock, see {@link paceToken}. */
export function pacesStreams(clock: ServerClock): boolean {
  return !clock.frozen;
}
