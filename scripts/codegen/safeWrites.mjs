// A safe write is one mark in openapi.json: `x-oz-safe-write: true` on the operation. From the mark the linter
// requires the four facts that make the write safe to retry (docs/retries-and-idempotency.md): the `TraceId`
// parameter (the idempotency key), `x-oz-replay` (the server keeps the 2xx answer under it), a 409 (the same key with
// another request: `idempotency_conflict`), a 422 (a malformed key: `invalid_params`) and the
// `x-idempotent-replayed` header on every 2xx answer. And the other way: a write the rules give
// `idempotency_conflict`, or one with `x-oz-replay`, must carry the mark.
import { operationErrorCodes } from './operationErrors.mjs';

/** The operation extension that marks a safe write. */
export const SAFE_WRITE_MARK = 'x-oz-safe-write';
const TRACE_ID = '#/components/parameters/TraceId';
const REPLAY_HEADER = 'x-idempotent-replayed';

/** The facts a safe write lacks, each a short phrase naming it; [] for none. */
export function missingSafeWriteFacts(op) {
  const missing = [];
  if (!(op.parameters ?? []).some((p) => p.$ref === TRACE_ID)) missing.push(`the TraceId parameter (${TRACE_ID})`);
  if (op['x-oz-replay'] !== true) missing.push('x-oz-replay: true');
  for (const status of ['409', '422']) if (!op.responses?.[status]) missing.push(`a ${status} response`);
  const ok = Object.entries(op.responses ?? {}).filter(([status]) => status.startsWith('2'));
  if (ok.length === 0) missing.push('a 2xx response');
  for (const [status, response] of ok) if (!response.headers?.[REPLAY_HEADER]) missing.push(`the ${REPLAY_HEADER} header on its ${status} response`);
  return missing;
}

/** Every problem of the safe writes of `doc`, each naming the operation and what is missing or wrong. */
export function lintSafeWrites(doc) {
  const problems = [];
  for (const entry of operationErrorCodes(doc).values()) {
    const op = doc.paths[entry.path][entry.method];
    const where = `${entry.method.toUpperCase()} ${entry.path} (${entry.id})`;
    const mark = op[SAFE_WRITE_MARK];
    if (mark !== undefined && mark !== true) problems.push(`${where}: ${SAFE_WRITE_MARK} must be true (or absent)`);
    if (mark === true) {
      for (const fact of missingSafeWriteFacts(op)) problems.push(`${where}: a safe write (${SAFE_WRITE_MARK}) without ${fact}`);
      continue;
    }
    if (op['x-oz-replay'] === true) problems.push(`${where}: x-oz-replay without ${SAFE_WRITE_MARK}: true (a replayed write is a safe write)`);
    if (entry.codes.includes('idempotency_conflict'))
      problems.push(`${where}: can answer idempotency_conflict (x-oz-error-code-rules), so it is a safe write: mark it ${SAFE_WRITE_MARK}: true`);
  }
  return problems;
}
