import type { OutputStream } from './output.js';

/** The live line of `--wait` on a terminal: the run, its status, the polls and the time so far. */
export interface ProgressLine {
  update(record: { readonly id?: string; readonly status?: string }): void;
  /** Clears the line (before the result is printed). */
  done(): void;
}

/**
 * A progress line on `stream` when it is a terminal (rewritten in place with a carriage return), else nothing
 * at all: a piped or captured stderr gets no progress.
 */
export function progressLine(stream: OutputStream, now: () => number = Date.now): ProgressLine {
  if (!stream.isTTY) return { update: () => undefined, done: () => undefined };
  const started = now();
  let polls = 0;
  let shown = false;
  return {
    update(record) {
      polls += 1;
      const seconds = ((now() - started) / 1000).toFixed(1);
      stream.write(`\r\x1b[2K${record.id ?? 'run'} ${record.status ?? '?'} · ${polls} poll${polls === 1 ? '' : 's'} · ${seconds}s`);
      shown = true;
    },
    done() {
      if (shown) stream.write('\r\x1b[2K');
      shown = false;
    },
  };
}
