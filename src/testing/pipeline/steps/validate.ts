import * as parameterValidators from '../../../generated/parameterValidators.js';
import * as requestValidators from '../../../generated/requestValidators.js';
import type { RequestContext } from '../requestContext.js';
import type { ServerExchange } from '../exchange.js';
import type { ServerStep } from '../serverStep.js';
import { INVALID_FORMAT_MESSAGE, OzMockError } from '../../contract/errors.js';
import { inexactNumberProblem } from '../../contract/exactNumbers.js';
import { OPENAPI_DOCUMENT, type OperationInfo } from '../../contract/operations.js';
import { describeSchema, generatedCheck, type GeneratedValidator, type SchemaCheck, type ValidationProblem } from '../../contract/schemaValidation.js';

type Place = 'path' | 'query' | 'header';
type Json = Record<string, unknown>;

interface RawParameter {
  name: string;
  in: Place | 'cookie';
  schema?: Json;
}

interface ParameterCheck {
  readonly location: Place;
  readonly names: readonly string[];
  /**
   * The parameters of type integer, with what the schema says of them: written in decimal digits only (the
   * schema's coercion would read `1e1`, `+5`, ` 5`).
   */
  readonly integers: ReadonlyArray<readonly [name: string, words: string]>;
  readonly check: SchemaCheck;
}

const DECIMAL_INTEGER = /^-?[0-9]+$/;

/** The checks of one operation: its validators, generated from its own parts of openapi.json. */
interface OperationChecks {
  readonly body: SchemaCheck | null;
  readonly parameters: readonly ParameterCheck[];
}

const PLACES: readonly Place[] = ['path', 'query', 'header'];
const BODIES = requestValidators as unknown as Readonly<Record<string, GeneratedValidator | undefined>>;
const PARAMETERS = parameterValidators as unknown as Readonly<Record<string, GeneratedValidator | undefined>>;
const PARAMETER_NAMES = parameterValidators.REQUEST_PARAMETERS as Readonly<Record<string, Partial<Record<Place, readonly string[]>>>>;

const checks = new Map<string, OperationChecks>();

function checksOf(op: OperationInfo): OperationChecks {
  let found = checks.get(op.id);
  if (!found) {
    const body = BODIES[`${op.id}_body`];
    const parameters: ParameterCheck[] = [];
    for (const location of PLACES) {
      const names = PARAMETER_NAMES[op.id]?.[location];
      if (names) parameters.push({ location, names, integers: integerParameters(op, location), check: generatedCheck(PARAMETERS[`${op.id}_${location}`]!) });
    }
    found = { body: body ? generatedCheck(body) : null, parameters };
    checks.set(op.id, found);
  }
  return found;
}

function resolveParameter(p: RawParameter | { $ref: string }): RawParameter {
  if (!('$ref' in p)) return p;
  const name = p.$ref.split('/').pop()!;
  return (OPENAPI_DOCUMENT.components as { parameters: Record<string, RawParameter> }).parameters[name]!;
}

/** An operation's integer parameters in one place, with the words of their schemas (read, not compiled). */
function integerParameters(op: OperationInfo, location: Place): ReadonlyArray<readonly [name: string, words: string]> {
  const item = (OPENAPI_DOCUMENT.paths as Record<string, Json>)[op.path]!;
  const raw = item[op.method.toLowerCase()] as Json & { parameters?: RawParameter[] };
  const all = [...((item.parameters as RawParameter[] | undefined) ?? []), ...(raw.parameters ?? [])].map(resolveParameter);
  return all.filter((p) => p.in === location && p.name !== 'format' && p.schema?.type === 'integer').map((p) => [p.name, describeSchema(p.schema!)] as const);
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
      if (value !== undefined && !DECIMAL_INTEGER.test(value))
        throw invalidParamsOf(ctx, { message: `${name} must be ${words}, in decimal digits.`, missing: [], field: name });
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

/** The component schemas a request body can carry, each with a generated validator. */
export type RequestComponent = {
  [K in keyof typeof requestValidators]: K extends `component_${infer Name}` ? Name : never;
}[keyof typeof requestValidators];

/**
 * A component schema of openapi.json (`#/components/schemas/<name>`), checked by its generated validator; `at` is
 * where the value sits in the request, so that messages name fields from the request's top.
 */
export function componentCheck(name: RequestComponent, at = ''): SchemaCheck {
  return generatedCheck(BODIES[`component_${name}`]!, at);
}

/** Step: the parameters and body are checked against openapi.json (MCP checks its own messages). */
export const validation: ServerStep<ServerExchange> = (ctx, next) => {
  const { op } = ctx;
  if (op.plane !== 'mcp') validateRequest(ctx.ctx, op);
  return next();
};
