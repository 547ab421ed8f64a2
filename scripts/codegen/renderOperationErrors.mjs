// Writes src/generated/operationErrors.ts: each operation's error codes (see operationErrors.mjs) as a table and
// as the type of its `result().error`: the classes of exactly those codes plus the SDK's own errors.

const docLines = (lines) => `/**\n${lines.map((l) => (l ? ` * ${l}` : ' *')).join('\n')}\n */\n`;
const list = (codes) => `[${codes.map((c) => `'${c}'`).join(', ')}]`;

export function renderOperationErrors(byOperation, runCodes) {
  let out = "import type { OzClientError } from '../core/result/callResult.js';\n";
  out += "import type { OzWaitTimeoutError } from '../core/executions/waitTimeoutError.js';\n";
  out += "import type { ERROR_CODES, ErrorCodeName } from './errors.js';\n";
  out += "import type { OperationId } from './operations.js';\n\n";
  // One constant per operation first (what one standalone function's bundle would carry), then the table.
  for (const entry of [...byOperation.values()].sort((a, b) => a.id.localeCompare(b.id))) {
    out += docLines([`The error codes \`${entry.id}\` can answer.`]);
    out += `export const ${entry.id}ErrorCodes = ${list(entry.codes)} as const satisfies readonly ErrorCodeName[];\n\n`;
  }
  out += docLines([
    "The error codes each operation can answer: its own `x-oz-error-codes` in openapi.json plus those the root's",
    '`x-oz-error-code-rules` imply for it (every keyed operation, every operation with a body, ...).',
  ]);
  const entries = [...byOperation.values()].sort((a, b) => a.id.localeCompare(b.id));
  out += 'export const OPERATION_ERROR_CODES = {\n';
  for (const entry of entries) out += `  ${entry.id}: ${entry.id}ErrorCodes,\n`;
  out += '} as const satisfies Record<OperationId, readonly ErrorCodeName[]>;\n\n';
  out += docLines(['The codes a run can end with (`executions.wait()`): the codes of every operation that starts a run.']);
  out += `export const RUN_ERROR_CODES = ${list(runCodes)} as const satisfies readonly ErrorCodeName[];\n\n`;
  out += docLines(['An error code an operation can answer.']);
  out += 'export type OperationErrorCode<Id extends OperationId> = (typeof OPERATION_ERROR_CODES)[Id][number];\n\n';
  out += docLines(['The class an error code is raised as.']);
  out += "export type ErrorOfCode<Code extends ErrorCodeName> = InstanceType<(typeof ERROR_CODES)[Code]['class']>;\n\n";
  out += docLines([
    "What a call of an operation can fail with: the classes of its error codes, and the SDK's own errors",
    '(connection, timeout, abort, usage, response validation). The error type of its `result()`.',
  ]);
  out += 'export type OperationError<Id extends OperationId> = ErrorOfCode<OperationErrorCode<Id>> | OzClientError;\n\n';
  out += docLines([
    "What `executions.wait()` (and a pointer's `wait()`) can fail with: the errors of reading the record, the codes a",
    'run can end with, and its own timeout.',
  ]);
  out += "export type WaitError = OperationError<'getExecution'> | ErrorOfCode<(typeof RUN_ERROR_CODES)[number]> | OzWaitTimeoutError;\n";
  return out;
}
