import yaml from 'js-yaml';
import { checkNesting, MAX_NESTING, nestingError } from '../contract/nesting.js';

/**
 * The plain scalars another YAML reader would read as something else than a string: YAML 1.1's booleans
 * (`yes`, `off`, `y`), nulls, ints (octal `0755`, binary, hex, `1_000`, sexagesimal `1:30`), floats (`.5`, `1:30.5`,
 * `.inf`), timestamps and dates (`2026-11-23T15:06:32.952Z`, `2026-11-23`), merge and value keys (`<<`, `=`), and YAML
 * 1.2 core's numbers (`1e3`, `0o17`). js-yaml (default schema), PyYAML and SnakeYAML read these; they are quoted on
 * the wire so that every reader gets the string.
 */
const RETYPED_BY_OTHER_READERS = new RegExp(
  [
    '^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$',
    '^(?:~|null|Null|NULL|<<|=)$',
    // (the mantissa optional: some YAML 1.1 readers take `E0` or `.` for a float)
    '^[-+]?(?:0b[0-1_]+|0o?[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\\.[0-9_]*)?|(?:[0-9][0-9_]*)?(?:\\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?)$',
    '^[-+]?\\.(?:inf|Inf|INF)$|^\\.(?:nan|NaN|NAN)$',
    '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \\t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]*)?(?:[ \\t]*Z|[ \\t]*[-+][0-9]{1,2}(?::?[0-9]{2})?)?)?$',
  ].join('|'),
);

// A type that never represents a value and reads as a string: added to the dumper's implicit types only so that
// js-yaml's ambiguity test (does an implicit type resolve this plain scalar?) quotes these strings.
const RETYPED_SCALAR = new yaml.Type('tag:oz.test,2026:retyped', {
  kind: 'scalar',
  resolve: (data: string | null) => data !== null && RETYPED_BY_OTHER_READERS.test(data),
  construct: (data: string) => data,
  predicate: () => false,
});

const DUMP_OPTIONS: yaml.DumpOptions = { schema: yaml.JSON_SCHEMA.extend({ implicit: [RETYPED_SCALAR] }), lineWidth: -1, noRefs: true };

/** The markdown fields of the envelopes: on the yaml wire they are always block scalars. */
const MARKDOWN_FIELDS: ReadonlySet<string> = new Set(['content']);

// Characters a YAML block scalar cannot carry, for YAML 1.2 and 1.1 readers alike (js-yaml, the yaml package,
// PyYAML): C0 controls but tab and LF, CR (it would fold into LF), DEL, C1 controls (NEL among them), the line and
// paragraph separators (1.1 line breaks), U+FEFF, U+FFFE, U+FFFF and lone surrogates. js-yaml escapes them all in a
// double-quoted scalar instead.
const NOT_BLOCKABLE =
  /[\r\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

// A line of only spaces or tabs: readers disagree whether its white space is content (the yaml package drops it).
const BLANK_LINE_WITH_SPACES = /(?:^|\n)[ \t]+(?:\n|$)/;

/**
 * A YAML literal block scalar (`|`, `|-`, `|+`) holding `value` exactly, indented by two spaces, or `null`
 * when the value cannot be one (empty, only newlines, a line of only white space, or non-printable characters):
 * js-yaml quotes it then.
 */
export function literalBlock(value: string): string | null {
  if (value === '' || NOT_BLOCKABLE.test(value) || !/[^\n]/.test(value) || BLANK_LINE_WITH_SPACES.test(value)) return null;
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
 * A document on the yaml wire: js-yaml with the JSON schema, every string another reader would retype quoted
 * (timestamps, `yes`, `0755`, ...), and the markdown fields (`content`) as literal block scalars, whatever their length.
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

// js-yaml's own bound (it counts a level more than `checkNesting` for a collection's content): anything within
// MAX_NESTING parses, and js-yaml's recursion stops well before the stack's end.
const YAML_MAX_DEPTH = MAX_NESTING + 2;

/**
 * Parses YAML with the JSON schema, so `2026-11-21` stays a string. A request body may not use anchors or
 * aliases (`anchors: 'refuse'`, throws {@link YamlAnchorError}); a fixture document may (its expansion is capped
 * where it is loaded: see `fixtureExpansion.ts`). Nested deeper than {@link MAX_NESTING} levels, `what` (`The
 * request body`) throws 400 `invalid_json`.
 */
export function parseYaml(text: string, anchors: 'refuse' | 'allow', what: string): unknown {
  let value: unknown;
  try {
    // `maxDepth` is js-yaml 4.3's; its published types predate it.
    const options: yaml.LoadOptions & { readonly maxDepth: number } = { schema: yaml.JSON_SCHEMA, maxDepth: YAML_MAX_DEPTH };
    value = yaml.load(text, anchors === 'refuse' ? { ...options, listener: REFUSE_ANCHORS } : options);
  } catch (err) {
    if (err instanceof yaml.YAMLException && err.reason.startsWith('nesting exceeded maxDepth')) throw nestingError(what);
    throw err;
  }
  checkNesting(value, what);
  return value;
}
