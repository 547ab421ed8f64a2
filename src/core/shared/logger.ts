/** How much the SDK logs: `off`, or the least severe level still written. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** Each level's rank: a line is written when its level's rank is at most the chosen level's. */
export const SEVERITY: Readonly<Record<LogLevel, number>> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** The level named by `value` (for example `OZ_LOG`), or undefined when it names none. */
export function parseLogLevel(value: string | undefined): LogLevel | undefined {
  const level = value?.trim().toLowerCase();
  return level !== undefined && Object.hasOwn(SEVERITY, level) ? (level as LogLevel) : undefined;
}

/** What a secret is replaced with in a log line or an error. */
export const REDACTED = '[redacted]';

/** `text` with every occurrence of each secret replaced by {@link REDACTED}. */
export function scrubText(text: string, secrets: readonly string[]): string {
  for (const secret of secrets) if (secret) text = text.split(secret).join(REDACTED);
  return text;
}

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

/**
 * Where a call's log lines go and what they may not show: its logger, its level and the keys to scrub (a live
 * array: keys a provider gives later are scrubbed too). The filtered logger of {@link logOf} is made from it on
 * the first line written, by the parts of the call path that write lines (none of them on a default call's path).
 */
export interface Logging {
  readonly logger: Logger;
  readonly level: LogLevel;
  /** Live lists of keys (a call's own, then its client's): each key in them is scrubbed. */
  readonly secrets: ReadonlyArray<readonly string[]>;
}

/** `value` with every occurrence of each secret replaced, looking into plain objects and arrays. */
export function scrubSecrets<V>(value: V, secrets: readonly string[]): V {
  if (typeof value === 'string') return scrubText(value, secrets) as V;
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
function filteredLogger({ logger, level, secrets }: Logging): Logger {
  const scrubbed = <V>(value: V): V => secrets.reduce((out, keys) => scrubSecrets(out, keys), value);
  const at = (name: Exclude<LogLevel, 'off'>) =>
    SEVERITY[name] > SEVERITY[level] ? () => undefined : (message: string, ...rest: unknown[]) => logger[name](scrubbed(message), ...scrubbed(rest));
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

// One filtered logger per `Logging` (a client's serves all its calls that bring no logger, level or key).
const LOGGERS = new WeakMap<Logging, Logger>();

/** The filtered logger of a call's {@link Logging}. */
export function logOf(logging: Logging): Logger {
  let log = LOGGERS.get(logging);
  if (log === undefined) LOGGERS.set(logging, (log = filteredLogger(logging)));
  return log;
}
