import { sample } from 'openapi-sampler';
import { OzMockError } from '../../contract/errors.js';
import { interpretedCheck } from '../../contract/schemaInterpreter.js';

/** The largest `minItems`/`minProperties` and `minLength` oz-chat fills: a schema may ask for more than a process holds. */
const MAX_SAMPLE_ITEMS = 1_000;
const MAX_SAMPLE_LENGTH = 10_000;

/** The first size a schema asks for that oz-chat will not build, as a message, or undefined. */
function oversized(node: unknown): string | undefined {
  if (Array.isArray(node)) return node.map(oversized).find((m) => m !== undefined);
  if (typeof node !== 'object' || node === null) return undefined;
  const n = node as Record<string, unknown>;
  for (const key of ['minItems', 'minProperties'] as const) {
    if (typeof n[key] === 'number' && (n[key] as number) > MAX_SAMPLE_ITEMS) return `${key} ${n[key]} is over ${MAX_SAMPLE_ITEMS}`;
  }
  if (typeof n.minLength === 'number' && n.minLength > MAX_SAMPLE_LENGTH) return `minLength ${n.minLength} is over ${MAX_SAMPLE_LENGTH}`;
  return Object.values(n)
    .map(oversized)
    .find((m) => m !== undefined);
}

/**
 * A value valid against a JSON Schema that arrived with the request (a tool's `parameters`, a `json_schema`
 * format): openapi-sampler's example (the same for the same schema: every field, enums' first values, formats'
 * examples), then checked by the interpreter that checks every run-time schema. A schema it cannot fill (a
 * `pattern` the example misses, a `$ref` that resolves to nothing) is a 422 naming `param`: script the reply.
 */
export function schemaSample(schema: Readonly<Record<string, unknown>>, param: string): unknown {
  const tooLarge = oversized(schema);
  if (tooLarge !== undefined) {
    throw new OzMockError(
      422,
      'invalid_params',
      `oz-chat does not build so large a value of the schema at ${param} (${tooLarge}). Script the reply with a stub (answer.reply).`,
      { param },
    );
  }
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
    throw new OzMockError(
      422,
      'invalid_params',
      `oz-chat cannot make a value of the schema at ${param}: ${(err as Error).message}. Script the reply with a stub (answer.reply).`,
      { param },
    );
  }
  let problem;
  try {
    problem = value === undefined ? { message: 'it gave no value (a schema that refers to itself)' } : check(value);
  } catch (err) {
    problem = { message: (err as Error).message };
  }
  if (problem) {
    throw new OzMockError(
      422,
      'invalid_params',
      `oz-chat cannot make a value valid against the schema at ${param} (${problem.message}). Script the reply with a stub (answer.reply).`,
      { param },
    );
  }
  return value;
}
