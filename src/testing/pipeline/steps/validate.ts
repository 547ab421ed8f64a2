import type { RequestContext } from '../requestContext.js';
import type { RequestStep } from '../requestStep.js';
import { INVALID_FORMAT_MESSAGE, OzMockError } from '../../contract/errors.js';
import { OPENAPI_DOCUMENT, type OperationInfo } from '../../contract/operations.js';
import { compileSchema, type SchemaCheck, type ValidationProblem } from '../../contract/schemaValidation.js';

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
  readonly check: SchemaCheck;
}

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
    parameters.push({ location, names: own.map((p) => p.name), check: compileSchema(schema, { coerce: true }) });
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
    const problem = p.check(parameterValues(ctx, p));
    if (problem) throw invalidParamsOf(ctx, problem);
  }
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

/** Step: the parameters and body are checked against openapi.json (MCP checks its own messages). */
export const validation: RequestStep = (ctx, op) => {
  if (op.plane !== 'mcp') validateRequest(ctx, op);
};
