import { boundedText } from './boundedText.js';
import { OzTimeoutError } from '../errors/errors.js';
import { OzResponseTooLargeError } from '../errors/responseTooLargeError.js';
import { followAbort } from './sharedAbort.js';

// setTimeout fires at once for delays above 2^31 - 1 ms.
const MAX_TIMER_MS = 2 ** 31 - 1;

const ignore = (): undefined => undefined;

/**
 * The deadline and the caller's abort of one attempt, the same for every `fetch` (the runtime's own, the embedded
 * server's `server.fetch`, msw's, one of the caller's). `signal` is what the fetch is given: it aborts when the
 * caller's signal aborts or when the attempt's timeout passes. Besides the signal, a cut ends what the attempt is
 * waiting for ({@link AttemptSignal.guard} and {@link AttemptSignal.readText}), so a fetch that ignores its signal
 * cannot hold an attempt past its deadline either. The caller's signal is followed through one listener shared by
 * every attempt on it (`sharedAbort.ts`); `release()` clears the timer and stops following it.
 */
export class AttemptSignal {
  readonly #controller = new AbortController();
  readonly #caller: AbortSignal | undefined;
  readonly #timeoutMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timedOut = false;
  // What a cut ends besides the signal: the fetch waited for, or the body being read.
  #onCut: ((reason: unknown) => void) | undefined;
  #unfollow: (() => void) | undefined;

  constructor(caller: AbortSignal | undefined, timeoutMs: number) {
    this.#caller = caller;
    this.#timeoutMs = timeoutMs;
    if (caller?.aborted) this.#controller.abort(caller.reason);
    else if (caller) this.#unfollow = followAbort(caller, (reason) => this.#cut(reason));
    // One function for every attempt's timer (no closure made per attempt).
    this.#timer = setTimeout(AttemptSignal.#expire, Math.min(Math.max(timeoutMs, 0), MAX_TIMER_MS), this);
  }

  /** The timer's work: the attempt's deadline has passed. */
  static #expire(this: void, attempt: AttemptSignal): void {
    attempt.#timer = undefined;
    attempt.#timedOut = true;
    attempt.#cut(attempt.#timeoutError());
  }

  #cut(reason: unknown): void {
    this.#controller.abort(reason);
    this.#onCut?.(reason);
  }

  /** The signal the attempt's fetch is given. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Whether the attempt was cut: its timeout passed, or the caller's signal aborted. */
  get cut(): boolean {
    return this.#timedOut || this.#caller?.aborted === true;
  }

  /**
   * The attempt's fetch (given {@link AttemptSignal.signal}; its answer as the steps under the attempt hand it), rejected at once when the attempt is cut, whether or
   * not the fetch heeds its signal; an answer that still comes later has its body cancelled.
   */
  guard<A extends { readonly response: Response }>(fetching: Promise<A>): Promise<A> {
    if (this.#controller.signal.aborted) {
      fetching.then((late) => late.response.body?.cancel().catch(ignore), ignore);
      return Promise.reject(this.#controller.signal.reason);
    }
    return new Promise<A>((resolve, reject) => {
      this.#onCut = (reason) => {
        reject(reason);
        fetching.then((late) => late.response.body?.cancel().catch(ignore), ignore);
      };
      fetching.then(
        (answer) => {
          this.#onCut = undefined;
          resolve(answer);
        },
        (error: unknown) => {
          this.#onCut = undefined;
          reject(error);
        },
      );
    });
  }

  /**
   * The whole body as text, as `response.text()` reads it (UTF-8, a leading byte order mark dropped), at most
   * `maxBytes` of it (counted as the fetch hands them: after decompression): past them the attempt is aborted with
   * {@link OzResponseTooLargeError}. A cut cancels the read, whether or not the fetch heeds its signal.
   */
  async readText(response: Response, maxBytes: number): Promise<string> {
    const body = response.body;
    if (body === null) return '';
    const reader = body.getReader();
    this.#onCut = (reason) => void reader.cancel(reason).catch(ignore);
    let text: string;
    try {
      text = await boundedText(reader, maxBytes);
    } catch (error) {
      // The fetch lets go of the connection too: nothing more of this answer is read.
      if (error instanceof OzResponseTooLargeError) this.#controller.abort(error);
      throw error;
    } finally {
      this.#onCut = undefined;
    }
    // A cancelled reader ends its pending read as if the body had ended.
    if (this.cut) throw this.#controller.signal.reason;
    return text;
  }

  /** Stops the attempt's timer (a stream's timeout covers only the wait for its first byte). */
  stopTimer(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#onCut = undefined;
  }

  /** Stops the timer and the following of the caller's signal. */
  release(): void {
    this.stopTimer();
    this.#unfollow?.();
    this.#unfollow = undefined;
  }

  /** Whether the attempt's deadline has passed. */
  get timedOut(): boolean {
    return this.#timedOut;
  }

  /** The caller's signal the attempt follows, if any. */
  get caller(): AbortSignal | undefined {
    return this.#caller;
  }

  /** Milliseconds the attempt may take. */
  get timeoutMs(): number {
    return this.#timeoutMs;
  }

  #timeoutError(): OzTimeoutError {
    return new OzTimeoutError(`The attempt timed out after ${this.#timeoutMs} ms.`);
  }
}
