import type { Logger } from '../shared/logger.js';
import type { Operation, RequestInput } from '../shared/operation.js';

// What was already warned about in this process: `op:<id>`, `param:<id>:<in>:<name>`, `answer:<id>`.
const WARNED = new Set<string>();

function once(key: string, log: Logger, message: string): void {
  if (WARNED.has(key)) return;
  WARNED.add(key);
  log.warn(message);
}

/**
 * Warns, once per process each, through the call's logger, when a call uses an operation or a parameter that
 * openapi.json marks `deprecated` (a parameter counts as used when the call sends it).
 */
export function warnDeprecatedUse(op: Operation, input: RequestInput, headers: Headers, log: Logger): void {
  if (op.deprecated) once(`op:${op.id}`, log, `[oz] ${op.id} (${op.method} ${op.path}) is deprecated in the API's description and may be removed.`);
  for (const param of op.deprecatedParams ?? []) {
    const sent =
      param.in === 'path' ? input.path?.[param.name] !== undefined : param.in === 'query' ? input.query?.[param.name] != null : headers.has(param.name);
    if (sent)
      once(
        `param:${op.id}:${param.in}:${param.name}`,
        log,
        `[oz] The ${param.in} parameter "${param.name}" of ${op.id} is deprecated in the API's description and may be removed.`,
      );
  }
}

/**
 * Warns, once per process per operation, when an answer carries a `Deprecation` or `Sunset` header (RFC 9745,
 * RFC 8594): the service says the operation is going away, and when.
 */
export function warnDeprecationHeaders(op: Operation, answer: Headers, log: Logger): void {
  const deprecation = answer.get('deprecation');
  const sunset = answer.get('sunset');
  if (deprecation === null && sunset === null) return;
  const parts = [deprecation === null ? '' : ` (Deprecation: ${deprecation})`, sunset === null ? '' : `; it stops working at ${sunset} (Sunset)`];
  const link = answer.get('link');
  const more = link !== null && /rel="?(deprecation|sunset)/i.test(link) ? ` See ${link}.` : '';
  once(`answer:${op.id}`, log, `[oz] The service says ${op.id} (${op.method} ${op.path}) is deprecated${parts.join('')}.${more}`);
}
