import type { CliFlag, CliFlagSchema } from '../generated/cli.js';
import type { Oz } from '../index.js';
import { isJsonObject, unexpectedAnswer } from '../core/errors/unexpectedAnswer.js';
import { CliUsageError } from './cliUsageError.js';

// A tool's or agent's card, read once per run: `--help` and the check of the fields read the same one.
const cards = new Map<string, Promise<readonly CliFlag[]>>();

/** Fields of the card's `input_schema` that the command line fills itself, or that the command already has. */
const NOT_FIELDS = new Set(['format', 'stream', 'async', 'agent']);

const names = (value: unknown): string[] => (Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : []);

/** The fields of a card as the service answered it: a card that is no object is an `OzError` naming what came. */
function fieldsOf(kind: 'tool' | 'agent', name: string, card: unknown): CliFlag[] {
  if (!isJsonObject(card)) throw unexpectedAnswer(`the ${kind} card of ${JSON.stringify(name)}`, `a ${kind} card`, card);
  const schema = isJsonObject(card.input_schema) ? card.input_schema : {};
  // A tool's card lists its required fields beside the schema; an agent's only in it.
  const needed = new Set([...(kind === 'tool' ? names(card.required) : []), ...names(schema.required)]);
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  return Object.entries(properties)
    .filter((entry): entry is [string, CliFlagSchema & { description?: unknown }] => !NOT_FIELDS.has(entry[0]) && isJsonObject(entry[1]))
    .map(([field, property]) => ({
      name: field,
      schema: property,
      required: needed.has(field),
      description: typeof property.description === 'string' ? property.description : '',
    }));
}

/** The fields a tool's or agent's card lists in its `input_schema` (read through the client, once per run). */
export function cardFields(client: Oz, kind: 'tool' | 'agent', name: string | undefined, signal: AbortSignal): Promise<readonly CliFlag[]> {
  if (name === undefined || name === '') {
    throw new CliUsageError(
      kind === 'tool' ? 'Missing TOOL: oz tools execute TOOL [--field value ...].' : 'Missing --agent NAME: the agent whose fields these are.',
    );
  }
  const key = `${kind}:${name}`;
  let fields = cards.get(key);
  if (fields === undefined) {
    fields =
      kind === 'tool'
        ? client.tools.get(name, { signal }).then((card: unknown) => fieldsOf(kind, name, card))
        : client.agents.get(name, { signal }).then((card: unknown) => fieldsOf(kind, name, card));
    cards.set(key, fields);
  }
  return fields;
}
