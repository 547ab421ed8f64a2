import yaml from 'js-yaml';

const DUMP_OPTIONS: yaml.DumpOptions = { schema: yaml.JSON_SCHEMA, lineWidth: -1, noRefs: true };

/** The markdown fields of the envelopes: on the yaml wire they are always block scalars. */
const MARKDOWN_FIELDS: ReadonlySet<string> = new Set(['content']);

// Characters a YAML block scalar cannot carry (non-printable ones, and CR which would fold into LF).
const NOT_BLOCKABLE = /[\r\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufeff]/;

/**
 * A YAML literal block scalar (`|`, `|-`, `|+`) holding `value` exactly, indented by two spaces, or `null`
 * when the value cannot be one (empty, only newlines, or non-printable characters): js-yaml quotes it then.
 */
export function literalBlock(value: string): string | null {
  if (value === '' || NOT_BLOCKABLE.test(value) || !/[^\n]/.test(value)) return null;
  const lines = value.split('\n');
  let chomp = '-';
  if (value.endsWith('\n')) {
    lines.pop();
    chomp = value.endsWith('\n\n') ? '+' : '';
  }
  // A first line starting with white space (or blank lines first) needs an explicit indentation indicator.
  const indicator = /^\s/.test(value) ? '2' : '';
  let out = `|${indicator}${chomp}\n`;
  for (const line of lines) out += line === '' ? '\n' : `  ${line}\n`;
  return out;
}

/**
 * A document on the yaml wire: js-yaml with the JSON schema (timestamps stay strings), and the markdown fields
 * (`content`) as literal block scalars, whatever their length.
 */
export function toYaml(doc: unknown): string {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return yaml.dump(doc, DUMP_OPTIONS);
  let out = '';
  for (const [key, value] of Object.entries(doc as Record<string, unknown>)) {
    if (value === undefined) continue;
    const block = MARKDOWN_FIELDS.has(key) && typeof value === 'string' ? literalBlock(value) : null;
    out += block ? `${key}: ${block}` : yaml.dump({ [key]: value }, DUMP_OPTIONS);
  }
  return out;
}

/** A YAML document refused because it uses an anchor (`&name`), and so maybe aliases (`*name`). */
export class YamlAnchorError extends Error {
  override readonly name = 'YamlAnchorError';
}

/**
 * Refuses a node with an anchor as soon as it is read. An alias needs an anchor before it, so no alias is ever
 * expanded either: a few hundred bytes of nested aliases ("billion laughs") would otherwise stand for billions
 * of values, and whatever walks them (validation, storage, rendering) would freeze the server.
 */
const REFUSE_ANCHORS = (event: yaml.EventType, state: yaml.State): void => {
  // js-yaml's parser state has the node's anchor; its published types leave the field out.
  const anchor = (state as yaml.State & { anchor?: string | null }).anchor;
  if (event === 'close' && typeof anchor === 'string') throw new YamlAnchorError(`anchors and aliases are not accepted (found &${anchor})`);
};

/**
 * Parses YAML with the JSON schema, so `2026-11-21` stays a string. A request body may not use anchors or
 * aliases (`anchors: 'refuse'`, throws {@link YamlAnchorError}); a fixture document may (its expansion is capped
 * where it is loaded: see `fixtureExpansion.ts`).
 */
export function parseYaml(text: string, anchors: 'refuse' | 'allow'): unknown {
  return yaml.load(text, anchors === 'refuse' ? { schema: yaml.JSON_SCHEMA, listener: REFUSE_ANCHORS } : { schema: yaml.JSON_SCHEMA });
}
