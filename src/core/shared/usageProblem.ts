import { OzUsageError } from '../errors/errors.js';
import type { Operation } from './operation.js';

/** The caller's mistakes a call's path finds before anything is sent, by kind, with what their message names. */
export interface UsageProblems {
  /** A path parameter not given (`queryOnly`: a passed-through path holding only a query string). */
  missingPathParameter: [op: Operation, name: string, queryOnly: boolean];
  /** A path parameter holding a `.` or `..` segment. */
  dotSegment: [op: Operation, name: string, value: string];
  /** A path parameter holding a lone surrogate (`'\ud800'`): no URL can carry it. */
  loneSurrogate: [op: Operation, name: string];
  /** `source`: the option the header came from (`defaultHeaders`, `headers`, `idempotencyKey`, `apiKey`). */
  headerName: [name: string, source: string];
  headerType: [name: string, source: string, type: string];
  /** `held`: the character no header may carry (the value itself is never quoted: it may be a credential). */
  headerValue: [name: string, source: string, held: string];
  /** `source`: where the parameter came from (`defaultQuery`, `query`, the operation's parameters); `what`: the value's kind. */
  queryValue: [name: string, source: string, what: string];
}

/**
 * A caller's mistake found on a call's path, before anything is sent: thrown where it is found (by the checks that
 * run on every call, which build no message), and turned into the caller's `OzUsageError` where the call is
 * prepared (the transport), by {@link usageError}.
 */
export class UsageProblem<K extends keyof UsageProblems = keyof UsageProblems> {
  readonly kind: K;
  readonly details: UsageProblems[K];

  constructor(kind: K, ...details: UsageProblems[K]) {
    this.kind = kind;
    this.details = details;
  }
}

const MESSAGES: { readonly [K in keyof UsageProblems]: (...details: UsageProblems[K]) => string } = {
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
  queryValue: (name, source, what) =>
    `The query parameter "${name}" (from ${source}) is ${what}; a query value is a string, a finite number, a boolean or an array of those. Nothing was sent.`,
};

/** `error` as the caller's {@link OzUsageError} when it is a {@link UsageProblem}; any other error as it is. */
export function usageError(error: unknown): unknown {
  if (!(error instanceof UsageProblem)) return error;
  const { kind, details } = error as UsageProblem;
  return new OzUsageError((MESSAGES[kind] as (...details: unknown[]) => string)(...details));
}
