import type { ServerClock } from '../../time/clock.js';
import type { ChatPace } from '../../pipeline/stubs/chatScript.js';
import { seededRandom } from '../../support/seededRandom.js';
import { paceToken } from '../../wire/streamPace.js';

/** Waits before one chunk of a streamed chat completion; `paced`: the chunk carries a token. */
export type ChunkPacer = (step: { readonly paced: boolean }) => Promise<void>;

/**
 * The waits between the chunks of a streamed chat completion. Without a reply's `pace`: the server's token pace
 * (`timing.tokenMs` on a running clock, a macrotask on a frozen one; see streamPace.ts). With it, always on the
 * server's clock (a frozen clock holds the stream until it is advanced): the first chunk waits `firstTokenMs`, the
 * first token goes with it, and each later token waits `1000 / tokensPerSecond` ms (rounded), times a factor drawn
 * evenly from `1 ± jitter` by a generator seeded with `seed`; chunks without a token (the end) follow at once.
 */
export function chunkPacer(clock: ServerClock, pace: ChatPace | undefined, tokenMs: number): ChunkPacer {
  if (pace === undefined) return (step) => (step.paced ? paceToken(clock, tokenMs) : Promise.resolve());
  const random = seededRandom(pace.seed ?? 0);
  const jitter = pace.jitter ?? 0;
  const gap = 1000 / pace.tokensPerSecond;
  let chunks = 0;
  let tokens = 0;
  return async (step) => {
    if (chunks++ === 0) await clock.sleep(pace.firstTokenMs);
    if (!step.paced || tokens++ === 0) return;
    await clock.sleep(Math.round(gap * (1 + jitter * (2 * random() - 1))));
  };
}
