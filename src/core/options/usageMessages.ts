import { OzUsageError } from '../errors/errors.js';
import { UsageProblem, type UsageProblems } from './usageProblem.js';

const MESSAGES: { readonly [K in keyof UsageProblems]: (...details: UsageProblems[K]) => string } = {
  maxRetries: (value) => `maxRetries must be a whole number >= 0, not ${String(value)}.`,
  timeout: (value) => `timeout must be a number of milliseconds > 0, not ${String(value)}.`,
  missingPathParameter: (op, name, queryOnly) => `Missing path parameter "${name}" of ${op.id}${queryOnly ? ' (only a query string was given)' : ''}.`,
  dotSegment: (op, name, value) =>
    `Path parameter "${name}" of ${op.id} (${op.method} ${op.path}) holds a "." or ".." segment (${JSON.stringify(value)}), ` +
    'which would move the request to another route; nothing was sent.',
  loneSurrogate: (op, name) =>
    `Path parameter "${name}" of ${op.id} holds a lone surrogate (half of a UTF-16 pair, such as "\\ud800"), which no URL can carry; nothing was sent.`,
  headerName: (name, source) => `The header name ${JSON.stringify(name)} (from ${source}) is not a valid HTTP header name; nothing was sent.`,
  headerType: (name, source, type) => `The header "${name}" (from ${source}) must be a string, not ${type}; nothing was sent.`,
  headerValue: (name, source, held) => {
    const what =
      held === '\r' || held === '\n'
        ? 'a line break (CR or LF)'
        : held === '\0'
          ? 'a NUL character'
          : `a character outside Latin-1 (U+${held.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`;
    return `The header "${name}" (from ${source}) has a value holding ${what}, which no HTTP header may carry; nothing was sent.`;
  },
};

/** `error` as the caller's {@link OzUsageError} when it is a {@link UsageProblem}; any other error as it is. */
export function usageError(error: unknown): unknown {
  if (!(error instanceof UsageProblem)) return error;
  const { kind, details } = error as UsageProblem;
  return new OzUsageError((MESSAGES[kind] as (...details: unknown[]) => string)(...details));
}
