/** Children an element is built with: text (set as text, never parsed as HTML), elements, or nothing. */
export type Child = Node | string | number | null | undefined | false;

/** An element with attributes and children; text goes in as text nodes, so nothing the server sends runs as markup. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Readonly<Record<string, string | boolean>> = {},
  ...children: readonly Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** A table with a caption, its column headings and rows of cells (an empty list says so in one row). */
export function table(caption: string, headings: readonly string[], rows: ReadonlyArray<readonly Child[]>, empty = 'None.'): HTMLTableElement {
  const head = h('thead', {}, h('tr', {}, ...headings.map((text) => h('th', { scope: 'col' }, text))));
  const body = h('tbody');
  if (rows.length === 0) body.append(h('tr', {}, h('td', { colspan: String(headings.length) }, empty)));
  for (const row of rows) body.append(h('tr', {}, ...row.map((cell) => h('td', {}, cell))));
  return h('table', {}, h('caption', {}, caption), head, body);
}

/** A time in the server's milliseconds as RFC 3339, or a dash. */
export function isoOf(ms: number | null | undefined): string {
  return typeof ms === 'number' ? new Date(ms).toISOString() : '–';
}
