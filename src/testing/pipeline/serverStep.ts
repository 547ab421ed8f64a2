import type { RequestOutcome } from '../wire/requestOutcome.js';
import type { Connection } from '../wire/connection.js';

/** What a mount calls with a request and what it read of it: the server's chain (`SERVER_STEPS`, serverChain.ts). */
export type RequestHandler = (request: Request, conn: Connection) => Promise<RequestOutcome>;

/** The steps after this one, run: what came of the request. */
export type ServerNext = () => Promise<RequestOutcome>;

/**
 * One step of the server's chain (`SERVER_STEPS` in src/testing/serverChain.ts, in order in
 * src/testing/pipeline/README.md): it reads and writes the request's context `ctx`, then answers itself or hands
 * on to the steps after it with `next()` and may change what they answered. A step declares the context it reads
 * (`C`): the chain's context has all of them. It may throw: the `render` step answers an error thrown after it.
 */
export type ServerStep<C> = (ctx: C, next: ServerNext) => RequestOutcome | Promise<RequestOutcome>;

/**
 * The steps made one function (as hono's `compose`, and the client's `composeSteps` in src/core/callChain.ts):
 * each step's `next` runs the steps after it. A step that throws synchronously rejects. Made once per list.
 */
export function composeServerSteps<C>(steps: readonly ServerStep<C>[]): (ctx: C) => Promise<RequestOutcome> {
  return (ctx) => {
    const run = (i: number): Promise<RequestOutcome> => {
      const step = steps[i];
      if (step === undefined) return Promise.reject(new Error('A request ran past the last step of the server chain without an answer.'));
      try {
        return Promise.resolve(step(ctx, () => run(i + 1)));
      } catch (err) {
        return Promise.reject(err as Error);
      }
    };
    return run(0);
  };
}
