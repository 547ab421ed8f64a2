import openapi from '../../../openapi.json' with { type: 'json' };
import type { Item, ItemCreateRequest } from '../../generated/types.js';

/** Fields of `Item` the server keeps in another form: money in micro-dollars, times in epoch ms. */
export type ItemStoredOtherwise = 'cost_usd' | 'created_at' | 'updated_at';
/** The fields of `Item` the server keeps as the API shows them. */
export type ItemPlainField = Exclude<keyof Item, ItemStoredOtherwise>;

/** What `newItemFields` answers: every plain field but those only the server knows. */
export type NewItemFields = Omit<Pick<Item, ItemPlainField>, 'id' | 'campus'>;

interface FieldSchema {
  readonly default?: unknown;
  readonly type?: string | readonly string[];
  readonly $ref?: string;
}
interface ObjectSchema {
  readonly required?: readonly string[];
  readonly properties: Readonly<Record<string, FieldSchema>>;
}
const ALL_SCHEMAS = openapi.components.schemas as unknown as Readonly<Record<string, FieldSchema>>;
const SCHEMAS = ALL_SCHEMAS as unknown as Readonly<Record<'Item' | 'ItemCreateRequest', ObjectSchema>>;
const OTHERWISE: ReadonlySet<string> = new Set<ItemStoredOtherwise>(['cost_usd', 'created_at', 'updated_at']);

/** Every field of the `Item` schema of openapi.json, in its order: what `itemView` answers. */
export const ITEM_FIELDS: readonly (keyof Item)[] = Object.keys(SCHEMAS.Item.properties) as (keyof Item)[];

/**
 * The plain fields of the `Item` schema of openapi.json, in its order: what a record keeps as the API shows it. A
 * field added to the schema is stored and shown without a line of the server.
 */
export const ITEM_PLAIN_FIELDS: readonly ItemPlainField[] = ITEM_FIELDS.filter((f) => !OTHERWISE.has(f)) as ItemPlainField[];

/** The `default` of each property of a schema that has one. */
function defaultsOf(schema: ObjectSchema): Readonly<Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(schema.properties)
      .filter(([, p]) => 'default' in p)
      .map(([name, p]) => [name, p.default]),
  );
}
const ITEM_DEFAULTS = defaultsOf(SCHEMAS.Item);
const REQUEST_FIELDS: ReadonlySet<string> = new Set(Object.keys(SCHEMAS.ItemCreateRequest.properties).filter((f) => f in SCHEMAS.Item.properties));

/**
 * The plain fields of a new item made by `request`: each field `ItemCreateRequest` shares with `Item` as given,
 * every other by the `Item` schema's default (a new item's value). The defaults sit on `Item`, not on the request:
 * openapi-typescript's default `defaultNonNullable` would make a request field with a default required in the types
 * a user generates. What only the server knows (id, campus, times) the caller adds.
 */
export function newItemFields(request: ItemCreateRequest): NewItemFields {
  const given = request as Readonly<Record<string, unknown>>;
  const fields: Record<string, unknown> = {};
  // In the schema's order, so that a stored item (and the state document) lists its fields as the API does.
  for (const field of ITEM_PLAIN_FIELDS) {
    const value = (REQUEST_FIELDS.has(field) ? given[field] : undefined) ?? ITEM_DEFAULTS[field];
    if (value !== undefined) fields[field] = structuredClone(value);
  }
  return fields as unknown as NewItemFields;
}

/** The `typeof` a JSON value of a field's schema has: `string`, `number`, `boolean`, with `?` when it may be null. */
function typeofField(field: FieldSchema): string {
  const schema = field.$ref ? ALL_SCHEMAS[field.$ref.replace('#/components/schemas/', '')]! : field;
  const types = [schema.type ?? []].flat();
  const base = types.find((t) => t !== 'null');
  const word = base === 'integer' ? 'number' : base === 'array' || base === 'object' ? base : (base ?? 'object');
  return types.includes('null') ? `${word}?` : word;
}

/**
 * The fields a stored item must have, with the `typeof` each must be (`?`: or null): each required plain field of
 * the `Item` schema, then those stored in another form. The state document's check of an item (fixtures/).
 */
export const ITEM_RECORD_TYPES: Readonly<Record<string, string>> = {
  id: 'string',
  account: 'string',
  ...Object.fromEntries(ITEM_PLAIN_FIELDS.filter((f) => SCHEMAS.Item.required?.includes(f)).map((f) => [f, typeofField(SCHEMAS.Item.properties[f]!)])),
  cost_micros: 'number',
  created_at: 'number',
  updated_at: 'number',
};
