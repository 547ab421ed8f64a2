// Writes the docs for coding agents (https://llmstxt.org): `llms.txt`, an index of README.md and every page of
// docs/ with a line each, in the sections and order of docs/README.md; and `llms-full.txt`, the whole text of
// README.md and of those pages in the same order. Both come from the pages alone, so `npm run generate` is the
// only step after a page changes; a page of docs/ that docs/README.md does not link stops the generation.
import { readFileSync, readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import MarkdownIt from 'markdown-it';

const markdown = new MarkdownIt({ html: true });
const oneLine = (text) => text.replace(/\s+/g, ' ').trim();
const LINK = /\[([^\]]+)\]\(([^)\s]+)\)/g;
/** A link's target in docs/README.md as a path from the root (undefined for an address). */
const pathOf = (href) => (/^[a-z][a-z0-9+.-]*:/i.test(href) ? undefined : posix.normalize(posix.join('docs', href.replace(/#.*$/, ''))));
/** The index of docs/: a guide to the pages, not one of them. */
export const DOCS_INDEX = 'docs/README.md';

/** The inline Markdown of the top-level paragraphs of a page, in order, each on one line. */
function paragraphsOf(text) {
  const tokens = markdown.parse(text, {});
  return tokens.flatMap((token, i) => (token.type === 'paragraph_open' && token.level === 0 ? [oneLine(tokens[i + 1].content)] : []));
}

/** The first sentence of a text: up to the first `.`, `!` or `?` followed by a space, or all of it. */
const firstSentence = (text) => text.match(/^.+?[.!?](?=\s|$)/)?.[0] ?? text;

/** The H2 headings of a page, in order. */
function headingsOf(text) {
  const tokens = markdown.parse(text, {});
  return tokens.flatMap((t, i) => (t.type === 'heading_open' && t.tag === 'h2' ? [oneLine(tokens[i + 1].content)] : []));
}

/** A page's H1 and the paragraph right under it (undefined when a heading, a list or code comes first). */
function headOf(text) {
  const tokens = markdown.parse(text, {});
  const h1 = tokens.findIndex((t) => t.type === 'heading_open' && t.tag === 'h1');
  const title = h1 === -1 ? undefined : oneLine(tokens[h1 + 1].content);
  const next = tokens[h1 + 3];
  const lead = next?.type === 'paragraph_open' ? oneLine(tokens[h1 + 4].content) : undefined;
  return { title, lead };
}

/**
 * The entries of docs/README.md, in order: the H2 section each sits in, the link's text, the target as a path
 * from the root, and the text after the link's `: ` (undefined when the list item has none).
 */
function entriesOf(indexText) {
  const tokens = markdown.parse(indexText, {});
  const entries = [];
  let section;
  for (const [i, token] of tokens.entries()) {
    if (token.type === 'heading_open' && token.tag === 'h2') section = oneLine(tokens[i + 1].content);
    if (token.type !== 'inline' || section === undefined || tokens[i - 2]?.type !== 'list_item_open') continue;
    const item = oneLine(token.content);
    for (const m of item.matchAll(LINK)) {
      const after = item.slice(m.index + m[0].length).match(/^: (.*)$/)?.[1];
      const path = pathOf(m[2]);
      if (path !== undefined) entries.push({ section, title: m[1], path, description: after && oneLine(after) });
    }
  }
  return entries;
}

/** The pages of the docs (README.md first, then docs/ in docs/README.md's order) and what llms.txt says of each. */
export function llmsPagesOf(root) {
  const read = (path) => readFileSync(join(root, path), 'utf8');
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
    .filter((path) => path !== DOCS_INDEX);
  const entries = entriesOf(read(DOCS_INDEX));
  const unlinked = docs.filter((path) => !entries.some((e) => e.path === path));
  if (unlinked.length > 0)
    throw new Error(`${DOCS_INDEX} links no entry for ${unlinked.join(', ')}: add each page to its list (a line "- [Title](page.md): what it holds")`);
  const describe = (path, given) => given ?? firstSentence(paragraphsOf(read(path))[0] ?? headOf(read(path)).title ?? path);
  const readme = { section: 'Start', title: 'README', path: 'README.md', description: headingsOf(read('README.md')).join(', '), text: read('README.md') };
  const pages = entries.filter((e) => docs.includes(e.path)).map((e) => ({ ...e, description: describe(e.path, e.description), text: read(e.path) }));
  // Other files docs/README.md links (CHANGELOG.md, SECURITY.md, api.md): listed in llms.txt's Optional section.
  const others = [...read(DOCS_INDEX).matchAll(LINK)]
    .map((m) => pathOf(m[2]))
    .filter((path, i, all) => path?.endsWith('.md') && !path.startsWith('docs/') && path !== 'README.md' && all.indexOf(path) === i)
    .map((path) => {
      const { title, lead } = headOf(read(path));
      return { path, title: title ?? path, description: lead && firstSentence(lead) };
    });
  return { readme, pages: [readme, ...pages], others };
}

/** `llms.txt`: the H1, the summary as a blockquote, then a section of links per section of docs/README.md. */
export function renderLlmsIndex({ readme, pages, others }) {
  const { title } = headOf(readme.text);
  const line = (page) => `- [${page.title}](${page.path})${page.description ? `: ${page.description}` : ''}`;
  const sections = [...new Set(pages.map((p) => p.section))].map((section) =>
    [`## ${section}`, '', ...pages.filter((p) => p.section === section).map(line)].join('\n'),
  );
  return [
    `# ${title}`,
    '',
    `> ${paragraphsOf(readme.text)[0]}`,
    '',
    'Each link is a Markdown page shipped in the package (node_modules/oz-sdk/), relative to this file. `llms-full.txt` beside it holds all of them in one file: README.md, then every page in the order below.',
    '',
    ...sections.flatMap((s) => [s, '']),
    '## Optional',
    '',
    ...others.map(line),
    '',
  ].join('\n');
}

/** `llms-full.txt`: every page's whole text, in llms.txt's order, each after a comment naming its file. */
export function renderLlmsFull({ pages }) {
  return pages.map((page) => `<!-- file: ${page.path} (its relative links start from ${posix.dirname(page.path)}/) -->\n\n${page.text.trimEnd()}\n`).join('\n');
}
