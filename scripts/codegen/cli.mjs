// The command table of the `oz` command line (src/generated/cli.ts), from the same model as the client's methods:
// one command per operation, its words from `x-oz-method`, its flags from the operation's query parameters and
// the top-level fields of its request body, typed from their schemas.

import { deref } from './model.mjs';

// Fields and parameters the command line fills from its own global flags, never from an operation flag.
const GLOBAL_FIELDS = new Set(['format', 'stream', 'async']);

/**
 * The keywords of a field's schema that say how its flag is read (`type`, `enum`, `minimum`, `maximum`), with
 * references followed and the types of `oneOf`/`anyOf` branches joined. The command line reads a tool's or an
 * agent's `input_schema` with the same function as these (src/cli/flagType.ts).
 */
function flagSchema(doc, raw) {
  const schema = deref(doc, raw) ?? {};
  const out = {};
  const branches = schema.oneOf ?? schema.anyOf;
  const types = branches ? [...new Set(branches.flatMap((b) => [deref(doc, b)?.type ?? 'object'].flat()))] : schema.type;
  if (types !== undefined) out.type = types;
  if (Array.isArray(schema.enum)) out.enum = schema.enum;
  if (typeof schema.minimum === 'number') out.minimum = schema.minimum;
  if (typeof schema.maximum === 'number') out.maximum = schema.maximum;
  return out;
}

function flagOf(doc, name, raw, required, description) {
  const schema = deref(doc, raw) ?? {};
  return { name, schema: flagSchema(doc, raw), required, description: description ?? schema.description ?? '' };
}

/** The rows of the command table, one per operation, in the model's order. */
export function cliCommandsOf(doc, model) {
  return model.operations.map((op) => {
    const query = op.userQuery.map((p) => flagOf(doc, p.name, p.schema, p.required === true, p.description));
    let body;
    if (op.body) {
      const item = doc.paths[op.path][op.method.toLowerCase()];
      const schema = deref(doc, deref(doc, item.requestBody).content['application/json'].schema) ?? {};
      const required = new Set(schema.required ?? []);
      const fields = Object.entries(schema.properties ?? {})
        .filter(([name]) => !GLOBAL_FIELDS.has(name))
        .map(([name, field]) => flagOf(doc, name, field, required.has(name)));
      body = {
        required: op.body.required,
        fields,
        // Fields beyond the listed ones are taken (a tool's or agent's own fields, the proxy's upstream body).
        open: schema.additionalProperties === true,
        stream: Boolean(schema.properties?.stream),
        async: Boolean(schema.properties?.async),
      };
    }
    return {
      method: [...op.resource, op.verb],
      operationId: op.id,
      summary: op.summary,
      description: op.description,
      pathParams: op.pathParams.map((p) => ({ name: p.name, description: p.description })),
      query,
      body,
      paged: op.paged,
      streaming: op.streaming,
      wire: op.wire,
      pointer: Boolean(op.pointer),
      // The card whose `input_schema` gives the fields of this command (`oz tools execute TOOL`, the agent door).
      card: op.id === 'executeTool' ? 'tool' : op.id === 'executeAgent' ? 'agent' : undefined,
    };
  });
}

export function renderCli(commands) {
  let out = `/** The keywords of a field's JSON Schema that say how its flag's value is read. */
export interface CliFlagSchema {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
}

/** A flag of a generated command: a query parameter or a top-level field of the request body. */
export interface CliFlag {
  /** The parameter's or field's own name: the flag is its kebab case (\`--user-request\`); \`--user_request\` works too. */
  readonly name: string;
  readonly schema: CliFlagSchema;
  readonly required: boolean;
  readonly description: string;
}

/** The request body of a generated command. */
export interface CliBody {
  readonly required: boolean;
  readonly fields: readonly CliFlag[];
  /** Fields beyond \`fields\` are accepted. */
  readonly open: boolean;
  /** The body takes \`stream: true\`. */
  readonly stream: boolean;
  /** The body takes \`async: true\`. */
  readonly async: boolean;
}

/** One command of \`oz\`: one operation of openapi.json. */
export interface CliCommand {
  /** The client's method, property by property (\`x-oz-method\`); the command's words are their kebab case. */
  readonly method: readonly string[];
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  /** Positional arguments, in path order. */
  readonly pathParams: readonly { readonly name: string; readonly description: string }[];
  readonly query: readonly CliFlag[];
  readonly body?: CliBody;
  readonly paged: boolean;
  readonly streaming: 'none' | 'optional' | 'always' | 'chat';
  /** Answers on the four wires. */
  readonly wire: boolean;
  /** May answer an async pointer. */
  readonly pointer: boolean;
  /** The card whose \`input_schema\` lists the command's own fields. */
  readonly card?: 'tool' | 'agent';
}

`;
  out += '/** Every operation of openapi.json as a command of `oz`. */\n';
  out += `export const CLI_COMMANDS: readonly CliCommand[] = ${JSON.stringify(commands, null, 2).replace(/"([A-Za-z_]\w*)":/g, '$1:')};\n`;
  return out;
}
