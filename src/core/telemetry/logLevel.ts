/** How much the SDK logs: `off`, or the least severe level still written. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** Each level's rank: a line is written when its level's rank is at most the chosen level's. */
export const SEVERITY: Readonly<Record<LogLevel, number>> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** The level named by `value` (for example `OZ_LOG`), or undefined when it names none. */
export function parseLogLevel(value: string | undefined): LogLevel | undefined {
  const level = value?.trim().toLowerCase();
  return level !== undefined && Object.hasOwn(SEVERITY, level) ? (level as LogLevel) : undefined;
}
