/**
 * llms.txt and llms-full.txt, the docs for coding agents, hold to the pages: llms.txt is an index in the llmstxt.org
 * form whose every link is a file of the repository, every page of docs/ is in both, and both are exactly what
 * `npm run generate` writes from README.md and docs/ now.
 */
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: the codegen is plain JavaScript without declarations
import * as llmsText from '../../scripts/codegen/llmsText.mjs';
import { REPOSITORY_FILES, ROOT } from './repositoryFiles.js';

type LlmsPages = { readonly pages: readonly { readonly path: string }[] };
const llmsPagesOf = llmsText.llmsPagesOf as (root: string) => LlmsPages;
const renderLlmsIndex = llmsText.renderLlmsIndex as (pages: LlmsPages) => string;
const renderLlmsFull = llmsText.renderLlmsFull as (pages: LlmsPages) => string;
const DOCS_INDEX = llmsText.DOCS_INDEX as string;

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const index = read('llms.txt');
const full = read('llms-full.txt');
const DOCS_PAGES = readdirSync(join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`)
  .filter((path) => path !== DOCS_INDEX);
/** The links of llms.txt's lists, with the section each sits in. */
const LINKS = (() => {
  let section = '';
  return index.split('\n').flatMap((line) => {
    if (line.startsWith('## ')) section = line.slice(3);
    const link = line.match(/^- \[([^\]]+)\]\(([^)]+)\)(?:: (.+))?$/);
    return link ? [{ section, title: link[1]!, path: link[2]!, description: link[3] }] : [];
  });
})();
/** The files of llms-full.txt, in order, as its comments name them. */
const FULL_FILES = [...full.matchAll(/^<!-- file: (\S+) /gm)].map((m) => m[1]);

describe('llms.txt', () => {
  it('has the llmstxt.org form: an H1, a blockquote summary, then sections of links', () => {
    const lines = index.split('\n');
    expect(lines[0]).toBe('# oz-sdk');
    expect(lines[2]).toMatch(/^> \S/);
    expect(lines.filter((line) => line.startsWith('# '))).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith('## ')).length).toBeGreaterThanOrEqual(3);
    // Under the first section, nothing but list lines and the blank lines between sections.
    const body = lines.slice(lines.findIndex((line) => line.startsWith('## ')));
    expect(body.filter((line) => line !== '' && !line.startsWith('## ') && !line.startsWith('- ['))).toEqual([]);
  });

  it('links only files of the repository, each once', () => {
    expect(LINKS.length).toBeGreaterThan(DOCS_PAGES.length);
    expect(LINKS.filter((link) => !REPOSITORY_FILES.includes(link.path)).map((link) => link.path)).toEqual([]);
    expect(new Set(LINKS.map((link) => link.path)).size).toBe(LINKS.length);
  });

  it('links README.md and every page of docs/, each with a one-line description', () => {
    const pages = LINKS.filter((link) => link.section !== 'Optional');
    expect(pages.map((link) => link.path).sort()).toEqual(['README.md', ...DOCS_PAGES].sort());
    expect(pages.filter((link) => !link.description).map((link) => link.path)).toEqual([]);
  });
});

describe('llms-full.txt', () => {
  it("holds README.md, then every page of docs/ in llms.txt's order, each whole", () => {
    expect(FULL_FILES).toEqual(LINKS.filter((link) => link.section !== 'Optional').map((link) => link.path));
    for (const path of ['README.md', ...DOCS_PAGES]) expect(full, path).toContain(read(path).trimEnd());
  });
});

describe('the writer (scripts/codegen/llmsText.mjs)', () => {
  it('writes both files as they are in the repository (else: npm run generate)', () => {
    const pages = llmsPagesOf(ROOT);
    expect(renderLlmsIndex(pages)).toBe(index);
    expect(renderLlmsFull(pages)).toBe(full);
  });

  const scratch = mkdtempSync(join(tmpdir(), 'oz-llms-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('stops at a page of docs/ that docs/README.md does not link, naming it and the fix', () => {
    mkdirSync(join(scratch, 'docs'));
    writeFileSync(join(scratch, 'README.md'), '# pkg\n\nA package.\n\n## Install\n');
    writeFileSync(join(scratch, 'docs/README.md'), '# Docs\n\n## Pages\n\n- [A](a.md): the first page\n');
    writeFileSync(join(scratch, 'docs/a.md'), '# A\n\nThe first page.\n');
    writeFileSync(join(scratch, 'docs/b.md'), '# B\n\nA page nobody linked.\n');
    expect(() => llmsPagesOf(scratch)).toThrow('docs/README.md links no entry for docs/b.md: add each page to its list');
  });

  it("describes a page docs/README.md gives no description by its first paragraph's first sentence", () => {
    writeFileSync(join(scratch, 'docs/README.md'), '# Docs\n\n## Pages\n\n- [A](a.md): the first page\n- [B](b.md)\n');
    const text = renderLlmsIndex(llmsPagesOf(scratch));
    expect(text).toContain('- [A](docs/a.md): the first page\n- [B](docs/b.md): A page nobody linked.\n');
    expect(text.startsWith('# pkg\n\n> A package.\n')).toBe(true);
  });
});
