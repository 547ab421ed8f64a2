import type { Operation, RequestInput } from './operation.js';
import { logOf, type Logging } from './telemetry/logger.js';
import * as deprecation from './deprecation.js';


/** Warns (once per process) of a call that uses what openapi.json marks deprecated. */
export async function warnDeprecatedUse(op: Operation, input: RequestInput, headers: Headers, logging: Logging): Promise<void> {
  deprecation.warnDeprecatedUse(op, input, headers, logOf(logging));
}

/** Warns (once per operation) of an answer with a `Deprecation` or `Sunset` header. */
export async function warnDeprecationHeaders(op: Operation, answer: Headers, logging: Logging): Promise<void> {
  deprecation.warnDeprecationHeaders(op, answer, logOf(logging));
}
