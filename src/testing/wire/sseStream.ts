import type { ServerClock, TimerHandle } from '../time/clock.js';

const encoder = new TextEncoder();

/** Options of an event stream. */
export interface SseStreamOptions {
  readonly clock: ServerClock;
  /** Cut the connection after this many events (fault injection). */
  readonly cutAfter?: number;
  /** How the mount cuts the connection. */
  readonly onCut?: () => void;
  /** A `: ping` comment after this much quiet (ms of the clock); 0 turns pings off. */
  readonly pingMs: number;
}

/**
 * A server-sent event stream the run writes to. It stops on the request's abort or the client's cancel,
 * while the run it reports on goes on (the execution record keeps the outcome).
 */
export class SseStream {
  readonly body: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #open = true;
  #events = 0;
  #ping: TimerHandle | null = null;
  readonly #options: SseStreamOptions;

  constructor(signal: AbortSignal, options: SseStreamOptions) {
    this.#options = options;
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => this.#stop(),
    });
    if (signal.aborted) this.close();
    else signal.addEventListener('abort', () => this.close(), { once: true });
    if (options.cutAfter === 0) this.#cut();
    this.#armPing();
  }

  /** Whether events still reach the client. */
  get isOpen(): boolean {
    return this.#open;
  }

  /** Sends one event: `event: <name>` (none for data-only events) and its data line. */
  send(event: string | null, data: string): void {
    if (!this.#open) return;
    this.#write(event === null ? `data: ${data}\n\n` : `event: ${event}\ndata: ${data}\n\n`);
    this.#events++;
    if (this.#options.cutAfter !== undefined && this.#events >= this.#options.cutAfter) this.#cut();
  }

  /** Ends the stream. */
  close(): void {
    if (!this.#open) return;
    this.#stop();
    try {
      this.#controller.close();
    } catch {
      // already closed by a cancel
    }
  }

  #cut(): void {
    this.#options.onCut?.();
    this.close();
  }

  #write(text: string): void {
    this.#controller.enqueue(encoder.encode(text));
    this.#armPing();
  }

  #armPing(): void {
    this.#ping?.cancel();
    if (!this.#open || this.#options.pingMs <= 0) return;
    this.#ping = this.#options.clock.timer(
      this.#options.pingMs,
      () => {
        if (this.#open) this.#write(': ping\n\n');
      },
      false,
    );
  }

  #stop(): void {
    this.#open = false;
    this.#ping?.cancel();
    this.#ping = null;
  }
}
