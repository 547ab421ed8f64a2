// The class tree of docs/errors.md ("Errors"), between its markers: the OzAPIError branch from openapi.json's
// `ErrorCode` (each status class with the code classes under it, in the document's order) and the status classes of
// src/core/errors/apiErrors.ts; then the SDK's own errors, which no document lists, written here.

export const TREE_START = '<!-- generated: the error tree (npm run generate, scripts/codegen/errorTree.mjs) -->';
export const TREE_END = '<!-- end of the generated error tree -->';

const COLUMN = 39;
const WIDTH = 112;
// What a code class has below it, beside its name.
const NOTES = { UnauthorizedError: ' → LegacyKeyError (an sk- key off its plane)' };
// The SDK's own errors (no answer, an abort, a misuse, MCP), under OzError beside OzAPIError.
const OWN_ERRORS = [
  ['├── OzConnectionError', 'no answer came'],
  ['│   ├── OzTimeoutError', 'an attempt timed out → OzWaitTimeoutError (a wait ran out)'],
  ['│   └── OzStreamInterruptedError', 'a stream was cut → OzStreamIdleTimeoutError (it went silent)'],
  ['├── OzAbortError', 'your signal aborted the call'],
  ['├── OzStreamProtocolError, OzUsageError, SignInError', ''],
  ['└── OzMcpError', 'McpMethodNotFoundError, McpInvalidParamsError → McpToolFencedError'],
  ["    (and McpToolError for a tool's isError answer)", ''],
];

const line = (left, right) => (right ? `${left.padEnd(COLUMN)}${right}` : left).trimEnd();

/** `names` joined by commas, wrapped at WIDTH under the column; the first line after `head`, the others after `cont`. */
function wrapped(head, cont, names) {
  const lines = [];
  let current = '';
  for (const [i, name] of names.entries()) {
    const word = i < names.length - 1 ? `${name},` : name;
    const left = lines.length === 0 ? head : cont;
    if (current && `${left.padEnd(COLUMN)}${current} ${word}`.length > WIDTH) {
      lines.push(line(left, current));
      current = word;
    } else {
      current = current ? `${current} ${word}` : word;
    }
  }
  lines.push(line(lines.length === 0 ? head : cont, current));
  return lines;
}

/**
 * The text block of the tree. `codes`: errorCodesOf (codegen/errors.mjs); `statusClasses`: the `Http…Error` classes
 * of src/core/errors/apiErrors.ts, in their order.
 */
export function renderErrorTree(codes, statusClasses) {
  const out = ['```text', 'OzError', '├── OzAPIError'];
  for (const [i, statusClass] of statusClasses.entries()) {
    const last = i === statusClasses.length - 1;
    const names = codes.filter((c) => c.base === statusClass).map((c) => `${c.name}${NOTES[c.name] ?? ''}`);
    out.push(...wrapped(`│   ${last ? '└──' : '├──'} ${statusClass}`, `│   ${last ? '   ' : '│'}`, names));
  }
  for (const [left, right] of OWN_ERRORS) out.push(line(left, right));
  out.push('```');
  return out.join('\n');
}

/** `page` (docs/errors.md) with the tree between its markers; throws when the markers are missing. */
export function withErrorTree(page, tree) {
  const start = page.indexOf(TREE_START);
  const end = page.indexOf(TREE_END);
  if (start < 0 || end < start) throw new Error(`docs/errors.md: the error tree needs its markers:\n${TREE_START}\n${TREE_END}`);
  return `${page.slice(0, start + TREE_START.length)}\n${tree}\n${page.slice(end)}`;
}
