import * as parameterValidators from '../generated/parameterValidators.js';
import * as requestValidators from '../generated/requestValidators.js';
import type { RequestContext } from './context.js';
import { INVALID_FORMAT_MESSAGE, OzMockError } from './errors.js';
import type { OperationInfo } from './operations.js';
import { generatedCheck, type GeneratedValidator, type SchemaCheck, type ValidationProblem } from './schemaValidation.js';

type Place = 'path' | 'query' | 'header';

interface ParameterCheck {
  readonly location: Place;
  readonly names: readonly string[];
  readonly check: SchemaCheck;
}

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
      if (names) parameters.push({ location, names, check: generatedCheck(PARAMETERS[`${op.id}_${location}`]!) });
    }
    found = { body: body ? generatedCheck(body) : null, parameters };
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
    const problem = p.check(parameterValues(ctx, p));
    if (problem) throw invalidParamsOf(ctx, problem);
  }
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
