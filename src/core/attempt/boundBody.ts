import { attemptErrorOf } from '../shared/attemptError.js';
import type { AttemptSignal } from '../shared/attemptSignal.js';

const ignore = (): undefined => undefined;

/**
 * A stream's answer (or one whose body `asResponse()` took unread) whose body stays bound to the caller's signal
 * while it is read: aborting the signal cuts it (with `OzAbortError`), and the attempt's listener is removed once
 * the body ends, fails or is cancelled. Without a caller's signal there is nothing to bind: the answer is handed on
 * as it came. Either way the attempt's timer stops: its timeout covers only the wait for the headers.
 */
export function boundBody(signal: AttemptSignal, response: Response): Response {
  signal.stopTimer();
  const source = response.body;
  if (signal.caller === undefined || !source) {
    signal.release();
    return response;
  }
  const reader = source.getReader();
  let cut: (() => void) | undefined;
  const release = () => {
    signal.release();
    if (cut) signal.signal.removeEventListener('abort', cut);
  };
  const fail = (cause: unknown, controller: ReadableStreamDefaultController<Uint8Array>) => {
    release();
    controller.error(attemptErrorOf(signal, cause));
  };
  const body = new ReadableStream<Uint8Array>({
    // An abort errors the body at once, read or not (whoever reads it, a `Stream`, stops its timers then), and
    // lets go of the connection: a caller that aborts between two reads may never read again.
    start: (controller) => {
      cut = () => {
        fail(signal.signal.reason, controller);
        void reader.cancel().catch(ignore);
      };
      signal.signal.addEventListener('abort', cut, { once: true });
    },
    // Not an async function: the read's own promise is the pull's (one async step per chunk, not two).
    pull: (controller) =>
      reader.read().then(
        ({ done, value }) => {
          if (done) {
            release();
            controller.close();
          } else {
            controller.enqueue(value);
          }
        },
        (cause: unknown) => fail(cause, controller),
      ),
    cancel: async (reason) => {
      release();
      await reader.cancel(reason).catch(ignore);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
