/** How much the SDK logs: `off`, or the least severe level still written. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** Where the SDK writes its log lines; `console` fits, as do pino and winston loggers. */
export interface Logger {
  /** A call failed for good. */
  error(message: string, ...rest: unknown[]): void;
  /** Something the caller should know: a recovery, a `Retry-After` over the cap, a bad `OZ_LOG`. */
  warn(message: string, ...rest: unknown[]): void;
  /** Retries and final failures. */
  info(message: string, ...rest: unknown[]): void;
  /** Every request and answer (credential headers redacted). */
  debug(message: string, ...rest: unknown[]): void;
}

const SEVERITY: Readonly<Record<LogLevel, number>> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** The level named by `value` (for example `OZ_LOG`), or undefined when it names none. */
export function parseLogLevel(value: string | undefined): LogLevel | undefined {
  const level = value?.trim().toLowerCase();
  return level !== undefined && Object.hasOwn(SEVERITY, level) ? (level as LogLevel) : undefined;
}

/** What a secret is replaced with in a log line. */
export const REDACTED = '[redacted]';

/** `value` with every occurrence of each secret replaced, looking into plain objects and arrays. */
export function scrubSecrets<V>(value: V, secrets: readonly string[]): V {
  if (typeof value === 'string') {
    let text: string = value;
    for (const secret of secrets) if (secret) text = text.split(secret).join(REDACTED);
    return text as V;
  }
  if (Array.isArray(value)) return value.map((v: unknown) => scrubSecrets(v, secrets)) as V;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubSecrets(v, secrets)])) as V;
  }
  return value;
}

/**
 * A logger that writes only at `level` and above, with the secrets (the API key) scrubbed from every string it
 * is given: a log line can never carry the key, even one the service echoed back.
 */
export function filteredLogger(logger: Logger, level: LogLevel, secrets: readonly string[]): Logger {
  const at = (name: Exclude<LogLevel, 'off'>) =>
    SEVERITY[name] > SEVERITY[level]
      ? () => undefined
      : (message: string, ...rest: unknown[]) => logger[name](scrubSecrets(message, secrets), ...scrubSecrets(rest, secrets));
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}
