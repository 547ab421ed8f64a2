import { OzResponseValidationError } from '../errors/responseValidationError.js';
import type { Logger } from '../shared/logger.js';
import type { AnswerValidator, AnswerValidatorLoader, AnswerValidators, ValidateMode } from '../shared/responseValidation.js';

/** Where a mismatch is reported besides the error or the log line. */
export interface ValidationReport {
  readonly log: Logger;
  readonly tag: string;
  readonly requestId: string | undefined;
  /** Adds a span event for a `warn` mismatch. */
  readonly onMismatch?: ((error: OzResponseValidationError) => void) | undefined;
}

/** `/data/0/name` as `$.data[0].name`. */
function jsonPath(pointer: string, extra?: string): string {
  let out = '$';
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  for (const part of parts) out += /^\d+$/.test(part) ? `[${part}]` : /^[A-Za-z_$][\w$]*$/.test(part) ? `.${part}` : `[${JSON.stringify(part)}]`;
  return out;
}

function valueAt(data: unknown, pointer: string): unknown {
  let node = data;
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

/**
 * Checks answers of one client against the generated validators: loads them once, on the first call made with
 * validation on, and remembers which operations already warned.
 */
export class AnswerChecker {
  readonly #load: AnswerValidatorLoader;
  #validators: Promise<AnswerValidators> | undefined;
  readonly #warned = new Set<string>();

  constructor(load: AnswerValidatorLoader) {
    this.#load = load;
  }

  /** The validators, loaded on first use. */
  validators(): Promise<AnswerValidators> {
    this.#validators ??= this.#load();
    return this.#validators;
  }

  /**
   * Checks one answer (`name`: `<operationId>_<status>` or `<operationId>_event`) with validators already loaded:
   * throws under `strict`, logs once per operation under `warn`.
   */
  check(validators: AnswerValidators, mode: ValidateMode, operationId: string, name: string, data: unknown, report: ValidationReport): void {
    if (mode === 'off') return;
    const validate = validators[name] as AnswerValidator | undefined;
    if (typeof validate !== 'function' || validate(data)) return;
    const first = validate.errors?.[0];
    const missing = first?.keyword === 'required' ? String(first.params.missingProperty) : undefined;
    const pointer = first?.instancePath ?? '';
    const error = new OzResponseValidationError({
      operationId,
      path: jsonPath(pointer, missing),
      value: missing === undefined ? valueAt(data, pointer) : undefined,
      requestId: report.requestId,
      problem: missing === undefined ? (first?.message ?? 'does not match its schema') : 'a required field is missing',
    });
    this.fail(mode, error, report);
  }

  /** A body that does not parse, under validation: a mismatch at `$` (thrown under `strict`). */
  unparsed(mode: ValidateMode, operationId: string, text: string, cause: unknown, report: ValidationReport): void {
    const problem = cause instanceof Error ? cause.message : String(cause);
    this.fail(mode, new OzResponseValidationError({ operationId, path: '$', value: text, requestId: report.requestId, problem }, { cause }), report);
  }

  /** A mismatch found: thrown under `strict`, else logged the first time for its operation. */
  fail(mode: ValidateMode, error: OzResponseValidationError, report: ValidationReport): void {
    if (mode === 'strict') throw error;
    if (mode !== 'warn') return;
    report.onMismatch?.(error);
    if (this.#warned.has(error.operationId)) return;
    this.#warned.add(error.operationId);
    report.log.warn(`${report.tag} ${error.message} (validate: 'warn'; later mismatches of ${error.operationId} are not logged)`);
  }
}
