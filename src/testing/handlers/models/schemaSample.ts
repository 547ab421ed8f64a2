import { sample } from 'openapi-sampler';
import { OzMockError } from '../../contract/errors.js';
import { interpretedCheck } from '../../contract/schemaInterpreter.js';

/**
 * A value valid against a JSON Schema that arrived with the request (a tool's `parameters`, a `json_schema`
 * format): openapi-sampler's example (the same for the same schema: every field, enums' first values, formats'
 * examples), then checked by the interpreter that checks every run-time schema. A schema it cannot fill (a
 * `pattern` the example misses, a `$ref` that resolves to nothing) is a 422 naming `param`: script the reply.
 */
export function schemaSample(schema: Readonly<Record<string, unknown>>, param: string): unknown {
  let check;
  try {
    check = interpretedCheck(schema, param);
  } catch (err) {
    throw new OzMockError(422, 'invalid_params', `${param} is not a usable JSON Schema: ${(err as Error).message}.`, { param });
  }
  let value: unknown;
  try {
    value = sample(schema as never, { skipNonRequired: false, skipReadOnly: true, quiet: true }, schema as never);
  } catch (err) {
    throw new OzMockError(422, 'invalid_params', `oz-chat cannot make a value of the schema at ${param}: ${(err as Error).message}. Script the reply with a stub (answer.reply).`, { param });
  }
  const problem = check(value);
  if (problem) {
    throw new OzMockError(422, 'invalid_params', `oz-chat cannot make a value valid against the schema at ${param} (${problem.message}). Script the reply with a stub (answer.reply).`, { param });
  }
  return value;
}
