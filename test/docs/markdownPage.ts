/**
 * A Markdown page as GitHub renders it, read with markdown-it: its links (inline and reference-style, with their
 * line), the anchors of its headings (as GitHub slugs them, duplicates numbered), and its code (inline spans and
 * fenced blocks), where source paths are named.
 */
import GithubSlugger from 'github-slugger';
import MarkdownIt from 'markdown-it';

type Token = ReturnType<MarkdownIt['parse']>[number];

export interface PageLink {
  readonly href: string;
  readonly line: number;
}

export interface MarkdownPage {
  readonly links: readonly PageLink[];
  readonly anchors: ReadonlySet<string>;
  /** Inline code spans and fenced or indented code blocks, each with its line. */
  readonly code: readonly { readonly text: string; readonly line: number }[];
}

const markdown = new MarkdownIt({ html: true });

/** The text GitHub slugs a heading from: its inline content without markup (code spans keep their text). */
function plainText(inline: Token): string {
  return (inline.children ?? []).map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : '')).join('');
}

export function readMarkdown(source: string): MarkdownPage {
  const env: { references?: Record<string, { href: string }> } = {};
  const tokens = markdown.parse(source, env);
  const slugger = new GithubSlugger();
  const links: PageLink[] = [];
  const anchors = new Set<string>();
  const code: { text: string; line: number }[] = [];
  let line = 1;
  for (const [i, token] of tokens.entries()) {
    if (token.map) line = token.map[0] + 1;
    if (token.type === 'heading_open') anchors.add(slugger.slug(plainText(tokens[i + 1]!)));
    if (token.type === 'fence' || token.type === 'code_block') code.push({ text: token.content, line });
    if (token.type === 'html_block' || token.type === 'html_inline') {
      for (const m of token.content.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(m[1]!);
    }
    for (const child of token.children ?? []) {
      if (child.type === 'link_open') links.push({ href: child.attrGet('href') ?? '', line });
      if (child.type === 'code_inline') code.push({ text: child.content, line });
    }
  }
  // Reference-style definitions (`[name]: target`) are links too, even when no text uses them.
  for (const reference of Object.values(env.references ?? {})) links.push({ href: reference.href, line: 0 });
  return { links, anchors, code };
}
