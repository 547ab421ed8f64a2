import { OzError } from './errors.js';

/**
 * An answer of the service does not match openapi.json (`validate: 'strict'`): a field of the wrong type, a
 * required field missing, a body that is not valid JSON or YAML. Raised in place of the data, so no malformed
 * value reaches the caller's code.
 */
export class OzResponseValidationError extends OzError {
  override name = 'OzResponseValidationError';
  /** The SDK's own code of this error, for a `switch (error.code)` over a call's `result()`. */
  readonly code = 'response_validation_error' as const;
  /** Where the answer breaks the schema, as a JSON path (`$.data[0].name`; `$` for the whole body). */
  readonly path: string;
  /** The value found at `path` (`undefined` for a missing field). */
  readonly value: unknown;
  /** The `x-request-id` of the answer. */
  readonly requestId: string | undefined;
  /** The operation whose answer it is. */
  readonly operationId: string;

  constructor(fields: { operationId: string; path: string; value: unknown; requestId: string | undefined; problem: string }, options?: ErrorOptions) {
    super(
      `${fields.operationId}: the answer does not match openapi.json at ${fields.path}: ${fields.problem}${fields.requestId ? ` (request ${fields.requestId})` : ''}.`,
      options,
    );
    this.operationId = fields.operationId;
    this.path = fields.path;
    this.value = fields.value;
    this.requestId = fields.requestId;
  }
}
