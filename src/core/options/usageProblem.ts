import type { Operation } from '../operation.js';

/** The caller's mistakes a call's path finds before anything is sent, by kind, with what their message names. */
export interface UsageProblems {
  maxRetries: [value: unknown];
  timeout: [value: unknown];
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
}

/**
 * A caller's mistake found on a call's path, before anything is sent: thrown where it is found, and turned into
 * the caller's `OzUsageError` where the call is prepared (the transport), by `usageMessages.ts`, a part of the call
 * path loaded then: the checks run on every call, the words of their messages load with the first mistake.
 */
export class UsageProblem<K extends keyof UsageProblems = keyof UsageProblems> {
  readonly kind: K;
  readonly details: UsageProblems[K];

  constructor(kind: K, ...details: UsageProblems[K]) {
    this.kind = kind;
    this.details = details;
  }
}
