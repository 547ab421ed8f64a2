import type { RequestContext } from './context.js';
import { INVALID_FORMAT_MESSAGE, OzMockError } from './errors.js';
import { inexactNumberProblem } from './exactNumbers.js';
import { OPENAPI_DOCUMENT, type OperationInfo } from './operations.js';
import { compileSchema, describeSchema, type SchemaCheck, type ValidationProblem } from './schemaValidation.js';

type Json = Record<string, unknown>;

interface RawParameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: Json;
}

interface ParameterCheck {
  readonly location: 'query' | 'path' | 'header';
  readonly names: readonly string[];
  /**
   * The parameters of type integer, with what the schema says of them: written in decimal digits only (the
   * schema's coercion would read `1e1`, `+5`, ` 5`).
   */
  readonly integers: ReadonlyArray<readonly [name: string, words: string]>;
  readonly check: SchemaCheck;
}

const DECIMAL_INTEGER = /^-?[0-9]+$/;

/** The checks of one operation, compiled from its own parts of openapi.json. */
interface OperationChecks {
  readonly body: SchemaCheck | null;
  readonly parameters: readonly ParameterCheck[];
}

const checks = new Map<string, OperationChecks>();

function resolveParameter(p: RawParameter | { $ref: string }): RawParameter {
  if (!('$ref' in p)) return p;
  const name = p.$ref.split('/').pop()!;
  return (OPENAPI_DOCUMENT.components as { parameters: Record<string, RawParameter> }).parameters[name]!;
}

function compileOperation(op: OperationInfo): OperationChecks {
  const item = (OPENAPI_DOCUMENT.paths as Record<string, Json>)[op.path]!;
  const raw = item[op.method.toLowerCase()] as Json & { parameters?: RawParameter[]; requestBody?: { content?: Record<string, { schema?: Json }> } };
  const bodySchema = raw.requestBody?.content?.['application/json']?.schema;
  const all = [...((item.parameters as RawParameter[] | undefined) ?? []), ...(raw.parameters ?? [])].map(resolveParameter);
  const parameters: ParameterCheck[] = [];
  for (const location of ['path', 'query', 'header'] as const) {
    // `format` has its own answer (400 `invalid_format`, always JSON): wire negotiation gives it.
    const own = all.filter((p) => p.in === location && p.name !== 'format' && p.schema);
    if (own.length === 0) continue;
    const schema = {
      type: 'object',
      properties: Object.fromEntries(own.map((p) => [p.name, p.schema])),
      required: own.filter((p) => p.required).map((p) => p.name),
    };
    const integers = own.filter((p) => p.schema!.type === 'integer').map((p) => [p.name, describeSchema(p.schema!)] as const);
    parameters.push({ location, names: own.map((p) => p.name), integers, check: compileSchema(schema, { coerce: true }) });
  }
  return { body: bodySchema ? compileSchema(bodySchema) : null, parameters };
}

function checksOf(op: OperationInfo): OperationChecks {
  let found = checks.get(op.id);
  if (!found) {
    found = compileOperation(op);
    checks.set(op.id, found);
  }
  return found;
}

/** The 422 `invalid_params` of a problem (with OpenAI's `param` on the models plane). */
export function invalidParamsOf(ctx: RequestContext, problem: ValidationProblem): OzMockError {
  const fields: { missing?: readonly string[]; param?: string | null } = {};
  if (problem.missing.length) fields.missing = problem.missing;
  if (ctx.op?.plane === 'models') fields.param = problem.field;
  return new OzMockError(422, 'invalid_params', problem.message, fields);
}

function parameterValues(ctx: RequestContext, p: ParameterCheck): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of p.names) {
    const value = p.location === 'query' ? ctx.query(name) : p.location === 'path' ? ctx.params[name] : (ctx.header(name) ?? undefined);
    if (value !== undefined) values[name] = value;
  }
  return values;
}

/**
 * Checks a request's parameters and parsed body against its operation in openapi.json: a problem answers 422
 * `invalid_params` (with `missing` for absent fields); a `format` outside the wires answers 400 `invalid_format`.
 */
export function validateRequest(ctx: RequestContext, op: OperationInfo): void {
  const { body, parameters } = checksOf(op);
  for (const p of parameters) {
    const values = parameterValues(ctx, p);
    for (const [name, words] of p.integers) {
      const value = values[name];
      if (value !== undefined && !DECIMAL_INTEGER.test(value)) throw invalidParamsOf(ctx, { message: `${name} must be ${words}, in decimal digits.`, missing: [], field: name });
    }
    const problem = p.check(values);
    if (problem) throw invalidParamsOf(ctx, problem);
  }
  const inexact = op.body ? inexactNumberProblem(ctx.rawBody, ctx.body) : null;
  if (inexact) throw invalidParamsOf(ctx, inexact);
  if (!body) return;
  const problem = body(ctx.body);
  if (!problem) return;
  if (problem.field === 'format') throw new OzMockError(400, 'invalid_format', INVALID_FORMAT_MESSAGE);
  throw invalidParamsOf(ctx, problem);
}

/** A component schema of openapi.json (`#/components/schemas/<name>`), compiled. */
export function componentCheck(name: string): SchemaCheck {
  return compileSchema({ $ref: `#/components/schemas/${name}` });
}
