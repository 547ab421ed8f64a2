/**
 * How the client checks answers against openapi.json: `off` (default) does not; `warn` logs the first mismatch of
 * each operation (and adds a span event); `strict` raises `OzResponseValidationError` in place of the data.
 * JSON and YAML bodies and every stream event are checked; markdown and text answers are strings, not checked.
 */
export type ValidateMode = 'off' | 'warn' | 'strict';

/** One problem an answer validator reports (the shape of ajv's errors). */
interface ValidatorError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message?: string | undefined;
}

/** A generated answer validator: plain code, no compilation at run time. */
export type AnswerValidator = ((data: unknown) => boolean) & { errors?: readonly ValidatorError[] | null };

/** The generated validators, by answer (`<operationId>_<status>`, `<operationId>_event`). */
export type AnswerValidators = Readonly<Record<string, unknown>>;

/** Loads the generated validators (a chunk of its own, imported on first use). */
export type AnswerValidatorLoader = () => Promise<AnswerValidators>;
