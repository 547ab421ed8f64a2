import { OzTimeoutError } from '../errors/errors.js';

// setTimeout fires at once for delays above 2^31 - 1 ms.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * undici's `headersTimeout` in Node's built-in fetch (300 s): an attempt timeout at least this long never fires
 * before undici gives up on the headers itself, so a fetch given no signal leaves no request running past its
 * attempt (see {@link AttemptSignal.guard}).
 */
export const UNDICI_HEADERS_TIMEOUT_MS = 300_000;

// One decoder serves every body: decode() without `stream` keeps no state between calls. Like `Response.text()`,
// it decodes UTF-8 and drops a leading byte order mark.
const UTF8 = new TextDecoder();

const ignore = (): undefined => undefined;

/**
 * The deadline and the caller's abort of one attempt. `signal` is what a fetch is given: it aborts when the
 * caller's signal aborts or when the attempt's timeout passes. It is made only when asked for: an attempt whose
 * fetch gets no signal (no caller's signal, Node's own fetch, whose undici timeouts bound a request the SDK stops
 * waiting for) is cut by {@link AttemptSignal.guard} and {@link AttemptSignal.readText} instead, which is most of
 * a call's client-side cost saved (an `AbortController`, and undici's listener and finalizer on its signal).
 * `release()` clears the timer and removes the one listener it added to the caller's signal.
 */
export class AttemptSignal {
  #controller: AbortController | undefined;
  readonly #caller: AbortSignal | undefined;
  readonly #timeoutMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timedOut = false;
  // What the deadline cuts besides the signal: the guarded fetch, or the body being read.
  #onTimeout: (() => void) | undefined;
  // Made only when there is a caller's signal to listen to (most calls have none).
  readonly #onCallerAbort: (() => void) | undefined;

  constructor(caller: AbortSignal | undefined, timeoutMs: number) {
    this.#caller = caller;
    this.#timeoutMs = timeoutMs;
    if (caller) {
      const controller = (this.#controller = new AbortController());
      this.#onCallerAbort = () => controller.abort(caller.reason);
      // Aborted between the call's start and this attempt: an 'abort' event will not come again.
      if (caller.aborted) this.#onCallerAbort();
      else caller.addEventListener('abort', this.#onCallerAbort, { once: true });
    }
    // One function for every attempt's timer (no closure made per attempt).
    this.#timer = setTimeout(AttemptSignal.#expire, Math.min(Math.max(timeoutMs, 0), MAX_TIMER_MS), this);
  }

  /** The timer's work: the attempt's deadline has passed. */
  static #expire(this: void, attempt: AttemptSignal): void {
    attempt.#timer = undefined;
    attempt.#timedOut = true;
    attempt.#controller?.abort(attempt.#timeoutError());
    attempt.#onTimeout?.();
  }

  /** The signal to hand to `fetch` (made on first use; already aborted if the attempt already timed out). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#timedOut) this.#controller.abort(this.#timeoutError());
    }
    return this.#controller.signal;
  }

  /** Whether the attempt was cut: its timeout passed, or the caller's signal aborted. */
  get cut(): boolean {
    return this.#timedOut || this.#caller?.aborted === true;
  }

  /**
   * A fetch that was given no signal, raced against the attempt's deadline: it rejects with
   * {@link OzTimeoutError} when the deadline passes first, and an answer that still comes later has its body
   * cancelled (which ends its request). Only for a fetch that ends on its own (undici's `headersTimeout`, at most
   * the attempt's timeout) and a call without a caller's signal: nothing else could stop the request.
   */
  guard(fetching: Promise<Response>): Promise<Response> {
    return new Promise<Response>((resolve, reject) => {
      this.#onTimeout = () => {
        reject(this.#timeoutError());
        fetching.then((late) => late.body?.cancel().catch(ignore), ignore);
      };
      fetching.then(
        (response) => {
          this.#onTimeout = undefined;
          resolve(response);
        },
        (error: unknown) => {
          this.#onTimeout = undefined;
          reject(error);
        },
      );
    });
  }

  /**
   * The whole body as text, as `response.text()` reads it (UTF-8, a leading byte order mark dropped), cut at the
   * attempt's deadline (its reader cancelled) whether or not the fetch had a signal.
   */
  async readText(response: Response): Promise<string> {
    const body = response.body;
    if (body === null) return '';
    const reader = body.getReader();
    this.#onTimeout = () => void reader.cancel(this.#timeoutError()).catch(ignore);
    let first: Uint8Array | undefined;
    let more: Uint8Array[] | undefined;
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (first === undefined) first = value;
        else (more ??= [first]).push(value);
      }
    } finally {
      this.#onTimeout = undefined;
    }
    // A cancelled reader ends its pending read as if the body had ended.
    if (this.#timedOut) throw this.#timeoutError();
    if (first === undefined) return '';
    if (more === undefined) return UTF8.decode(first);
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const chunk of more) {
      bytes.set(chunk, at);
      at += chunk.byteLength;
    }
    return UTF8.decode(bytes);
  }

  /** Stops the attempt's timer (a stream's timeout covers only the wait for its first byte). */
  stopTimer(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#onTimeout = undefined;
  }

  /** Stops the timer and removes the listener from the caller's signal. */
  release(): void {
    this.stopTimer();
    if (this.#onCallerAbort) this.#caller?.removeEventListener('abort', this.#onCallerAbort);
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
