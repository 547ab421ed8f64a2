import type { OutputStream } from './output.js';
import type { ControlStream } from './terminalText.js';

/** The live line of `--wait` on a terminal: the run, its status, the polls and the time so far. */
export interface ProgressLine {
  update(record: { readonly id?: string; readonly status?: string }): void;
  /** Clears the line (before the result is printed). */
  done(): void;
}

/**
 * A progress line on `stream` when it is a terminal (rewritten in place with a carriage return and a line clear,
 * written with `writeControl`; the record's id and status go through `write`, which escapes what the service may
 * have put in them), else nothing at all: a piped or captured stderr gets no progress.
 */
export function progressLine(stream: OutputStream & Partial<ControlStream>, now: () => number = Date.now): ProgressLine {
  if (!stream.isTTY) return { update: () => undefined, done: () => undefined };
  const control = (sequence: string) => (stream.writeControl ?? stream.write).call(stream, sequence);
  const started = now();
  let polls = 0;
  let shown = false;
  return {
    update(record) {
      polls += 1;
      const seconds = ((now() - started) / 1000).toFixed(1);
      control(CLEAR_LINE);
      stream.write(`${String(record.id ?? 'run')} ${String(record.status ?? '?')} · ${polls} poll${polls === 1 ? '' : 's'} · ${seconds}s`);
      shown = true;
    },
    done() {
      if (shown) control(CLEAR_LINE);
      shown = false;
    },
  };
}

// Back to the line's start, then erase it.
const CLEAR_LINE = '\r\x1b[2K';
