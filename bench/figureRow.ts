/** One row of the results table: a figure, its anchor measured in the same run, and its target. */
export interface FigureRow {
  /** The row's name (stable: the smoke test looks for it). */
  readonly name: string;
  /** Our measurement, formatted. */
  readonly ours: string;
  /** The anchor's measurement, formatted (with the anchor's name). */
  readonly anchor: string;
  /** The figure compared with the target: a ratio, an overhead, a growth. */
  readonly result: string;
  readonly target: string;
  /** Whether the target is met (undefined in the smoke run, whose counts are too small to judge). */
  readonly met: boolean | undefined;
  /** How it was measured, briefly. */
  readonly how: string;
}

/** Milliseconds as microseconds or milliseconds, whichever reads better. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  return ms < 10 ? `${(ms * 1000).toFixed(ms < 0.1 ? 1 : 0)} µs` : `${ms.toFixed(1)} ms`;
}

/** Three decimals: a ratio is judged exactly, and 0.85 must not print for 0.8503 against a target of 0.85. */
export function formatRatio(ratio: number): string {
  return `${ratio.toFixed(3)}x`;
}

/** A ratio with the spread of the rounds it is the median of (their first and third quartiles). */
export function formatSpread(ratio: number, [q1, q3]: readonly [number, number]): string {
  return `${formatRatio(ratio)} (rounds ${q1.toFixed(2)}-${q3.toFixed(2)})`;
}

export function formatBytes(bytes: number): string {
  return `${bytes.toLocaleString('en')} B (${(bytes / 1024).toFixed(1)} kB)`;
}

/** `met` for a measurement, or undefined in the smoke run. */
export function judged(smoke: boolean, met: boolean): boolean | undefined {
  return smoke ? undefined : met;
}
