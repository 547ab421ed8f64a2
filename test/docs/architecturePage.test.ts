/**
 * ARCHITECTURE.md stays a page a newcomer reads: at most 12 KB, and exactly the sections of the tour, in order.
 * Reference text goes to the README of the folder it describes (src/README.md, src/core/README.md,
 * src/testing/README.md and each folder's), which the tour links. Headings are read with markdown-it, so a `##`
 * inside a code block is not a section.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { ROOT } from './repositoryFiles.js';

const MAX_BYTES = 12 * 1024;

const SECTIONS = [
  'Layers',
  'A call through the client',
  'Standalone functions',
  'A request through the embedded server',
  'Event streams',
  "The embedded server's folders",
  'Glossary',
  'Where is X',
  'Routes',
  'Adding an operation',
  'Validators',
] as const;

/** The text of every level-2 heading of a Markdown page, in order. */
function sectionsOf(source: string): string[] {
  const tokens = new MarkdownIt({ html: true }).parse(source, {});
  return tokens.flatMap((token, i) => (token.type === 'heading_open' && token.tag === 'h2' ? [tokens[i + 1]!.content] : []));
}

/** What keeps a page from being the tour: its size past the bound, sections missing, extra or out of order. */
function pageProblems(source: string): string[] {
  const problems: string[] = [];
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes > MAX_BYTES) problems.push(`${bytes} bytes, over ${MAX_BYTES}: move reference text to the README of its folder`);
  const sections = sectionsOf(source);
  if (sections.join('\n') !== SECTIONS.join('\n')) problems.push(`sections ${JSON.stringify(sections)}, not ${JSON.stringify(SECTIONS)}`);
  return problems;
}

const page = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');

describe('ARCHITECTURE.md', () => {
  it(`is at most ${MAX_BYTES} bytes and has exactly the tour's sections, in order`, () => {
    expect(pageProblems(page)).toEqual([]);
  });
});

describe('the check itself', () => {
  const tour = `# Architecture\n\n${SECTIONS.map((title) => `## ${title}\nText.\n`).join('\n')}`;

  it('passes the tour as it should be', () => {
    expect(pageProblems(tour)).toEqual([]);
  });

  it('sees a page past 12 KB', () => {
    expect(pageProblems(`${tour}\n${'x'.repeat(MAX_BYTES)}\n`)).toEqual([expect.stringMatching(/^\d+ bytes, over 12288/)]);
  });

  it('sees a section added, missing or moved', () => {
    expect(pageProblems(`${tour}\n## The built package\nText.\n`)).toEqual([expect.stringMatching(/^sections .*The built package/)]);
    expect(pageProblems(tour.replace('## Routes\n', 'Routes\n'))).toEqual([expect.stringMatching(/^sections /)]);
    expect(pageProblems(tour.replace('## Glossary\nText.\n', '').replace('## Layers\n', '## Glossary\nText.\n\n## Layers\n'))).toEqual([
      expect.stringMatching(/^sections /),
    ]);
  });

  it('counts a level-2 heading only, not a level-3 one nor a line in a code block', () => {
    expect(pageProblems(`${tour}\n### A detail\n\n\`\`\`md\n## Not a heading\n\`\`\`\n`)).toEqual([]);
  });

  it('counts bytes, not characters', () => {
    expect(Buffer.byteLength('é')).toBe(2);
    expect(pageProblems(`${tour}${'é'.repeat(MAX_BYTES / 2)}`)).toEqual([expect.stringMatching(/ bytes, over /)]);
  });
});
