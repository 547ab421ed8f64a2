import type { CliFlag, CliFlagSchema } from '../generated/cli.js';
import type { Oz } from '../index.js';
import { CliUsageError } from './cliUsageError.js';

// A tool's or agent's card, read once per run: `--help` and the check of the fields read the same one.
const cards = new Map<string, Promise<readonly CliFlag[]>>();

/** Fields of the card's `input_schema` that the command line fills itself, or that the command already has. */
const NOT_FIELDS = new Set(['format', 'stream', 'async', 'agent']);

function fieldsOf(inputSchema: unknown, required: readonly string[]): CliFlag[] {
  const schema = (typeof inputSchema === 'object' && inputSchema !== null ? inputSchema : {}) as { properties?: Record<string, CliFlagSchema & { description?: string }>; required?: string[] };
  const needed = new Set([...required, ...(schema.required ?? [])]);
  return Object.entries(schema.properties ?? {})
    .filter(([name]) => !NOT_FIELDS.has(name))
    .map(([name, property]) => ({ name, schema: property, required: needed.has(name), description: typeof property.description === 'string' ? property.description : '' }));
}

/** The fields a tool's or agent's card lists in its `input_schema` (read through the client, once per run). */
export function cardFields(client: Oz, kind: 'tool' | 'agent', name: string | undefined, signal: AbortSignal): Promise<readonly CliFlag[]> {
  if (name === undefined || name === '') {
    throw new CliUsageError(kind === 'tool' ? 'Missing TOOL: oz tools execute TOOL [--field value ...].' : 'Missing --agent NAME: the agent whose fields these are.');
  }
  const key = `${kind}:${name}`;
  let fields = cards.get(key);
  if (fields === undefined) {
    fields =
      kind === 'tool'
        ? client.tools.get(name, { signal }).then((card) => fieldsOf(card.input_schema, card.required))
        : client.agents.get(name, { signal }).then((card) => fieldsOf(card.input_schema, []));
    cards.set(key, fields);
  }
  return fields;
}
