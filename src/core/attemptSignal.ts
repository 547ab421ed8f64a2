import { abortError } from './abortableSleep.js';
import { OzConnectionError, OzTimeoutError, type OzAbortError } from './errors.js';

// setTimeout fires at once for delays above 2^31 - 1 ms.
const MAX_TIMER_MS = 2 ** 31 - 1;

// undici's own timeouts of Node's built-in fetch (300 s each by default).
const UNDICI_TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * The signal of one attempt: it aborts when the caller's signal aborts or when the attempt's timeout passes.
 * `release()` clears the timer and removes the one listener it added to the caller's signal.
 */
export class AttemptSignal {
  readonly #controller = new AbortController();
  readonly #caller: AbortSignal | undefined;
  readonly #timeoutMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timedOut = false;
  // Made only when there is a caller's signal to listen to (most calls have none).
  readonly #onCallerAbort: (() => void) | undefined;

  constructor(caller: AbortSignal | undefined, timeoutMs: number) {
    this.#caller = caller;
    this.#timeoutMs = timeoutMs;
    if (caller) {
      this.#onCallerAbort = () => this.#controller.abort(caller.reason);
      // Aborted between the call's start and this attempt: an 'abort' event will not come again.
      if (caller.aborted) this.#onCallerAbort();
      else caller.addEventListener('abort', this.#onCallerAbort, { once: true });
    }
    this.#timer = setTimeout(() => {
      this.#timedOut = true;
      this.#controller.abort(new OzTimeoutError(`The attempt timed out after ${timeoutMs} ms.`));
    }, Math.min(Math.max(timeoutMs, 0), MAX_TIMER_MS));
  }

  /** The signal to hand to `fetch`. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Stops the attempt's timer (a stream's timeout covers only the wait for its first byte). */
  stopTimer(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Stops the timer and removes the listener from the caller's signal. */
  release(): void {
    this.stopTimer();
    if (this.#onCallerAbort) this.#caller?.removeEventListener('abort', this.#onCallerAbort);
  }

  /**
   * A stream's answer whose body stays bound to the caller's signal while it is read: aborting the signal cuts it
   * (with {@link OzAbortError}), and the listener is removed once the body ends, fails or is cancelled.
   */
  bindBody(response: Response): Response {
    this.stopTimer();
    const source = response.body;
    if (!source) {
      this.release();
      return response;
    }
    const reader = source.getReader();
    const body = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        try {
          const { done, value } = await reader.read();
          if (done) {
            this.release();
            controller.close();
          } else {
            controller.enqueue(value);
          }
        } catch (cause) {
          this.release();
          controller.error(this.errorFor(cause));
        }
      },
      cancel: async (reason) => {
        this.release();
        await reader.cancel(reason).catch(() => undefined);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  /** The typed error of a failed attempt: aborted by the caller, timed out, or a connection failure. */
  errorFor(cause: unknown): OzAbortError | OzConnectionError {
    if (this.#caller?.aborted) return abortError(this.#caller);
    if (this.#timedOut) return new OzTimeoutError(`The attempt timed out after ${this.#timeoutMs} ms.`, { cause });
    const code = (cause as { cause?: { code?: unknown } } | undefined)?.cause?.code;
    if (typeof code === 'string' && UNDICI_TIMEOUTS.has(code)) {
      return new OzTimeoutError(
        `Node's fetch (undici) gave up after its own ${code === 'UND_ERR_HEADERS_TIMEOUT' ? 'headersTimeout' : 'bodyTimeout'} ` +
          '(300 s by default), before the SDK timeout; pass a `fetch` using an undici Agent with longer timeouts to wait longer.',
        { cause },
      );
    }
    return new OzConnectionError('The connection failed before a complete answer came.', { cause });
  }
}
