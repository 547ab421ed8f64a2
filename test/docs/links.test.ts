/**
 * Nothing stale in the docs: every relative link and anchor of every Markdown page resolves (anchors as GitHub
 * slugs headings), and every file a page or a code comment names exists (the rule: namedPaths.ts).
 *
 * The pages: every `.md` file of the repository but build output (README.md, api.md, CONTRIBUTING.md,
 * ARCHITECTURE.md, SECURITY.md, RELIABILITY.md, CHANGELOG.md, docs/*.md, bench/*.md, src/testing/*\/README.md).
 * CHANGELOG.md's links are checked, not the files it names: an entry tells what was true when it was written.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readMarkdown, type MarkdownPage } from './markdownPage.js';
import { brokenNames, type Prose } from './namedPaths.js';
import { REPOSITORY_FILES, REPOSITORY_FOLDERS, ROOT } from './repositoryFiles.js';
import { commentsOf, hasComments } from './sourceComments.js';

const PAGES = REPOSITORY_FILES.filter((path) => path.endsWith('.md'));
const NAMES_CHECKED_IN = PAGES.filter((path) => path !== 'CHANGELOG.md');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const parsed = new Map<string, MarkdownPage>();
const page = (path: string) => parsed.get(path) ?? parsed.set(path, readMarkdown(read(path))).get(path)!;

/** What is wrong with one link of a page, or undefined when it resolves. */
export function linkProblem(from: string, href: string, pageOf: (path: string) => MarkdownPage, exists: (path: string) => boolean): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) return undefined; // an address, not ours to check
  const hash = href.indexOf('#');
  const target = decodeURIComponent(hash === -1 ? href : href.slice(0, hash));
  const anchor = hash === -1 ? undefined : decodeURIComponent(href.slice(hash + 1));
  if (target.startsWith('/')) return `${href}: a path from the root works on one host only; write it relative to ${from}`;
  const path = target === '' ? from : posix.normalize(posix.join(posix.dirname(from), target)).replace(/\/$/, '');
  if (path.startsWith('..')) return `${href}: outside the repository`;
  if (!exists(path)) return `${href}: no file or folder ${path}`;
  if (anchor !== undefined && path.endsWith('.md') && !pageOf(path).anchors.has(anchor)) return `${href}: no heading #${anchor} in ${path}`;
  return undefined;
}

/** The user's pages: README.md and docs/ (the rest is for the repository's contributors). */
const proseOf = (path: string): Prose => (path === 'README.md' || path.startsWith('docs/') ? 'user' : 'other');
const exists = (path: string) => REPOSITORY_FILES.includes(path) || REPOSITORY_FOLDERS.has(path);

describe('the docs resolve', () => {
  it('finds the pages (README.md, docs/, ARCHITECTURE.md, the READMEs of src/testing/)', () => {
    for (const path of ['README.md', 'docs/README.md', 'docs/streams.md', 'ARCHITECTURE.md', 'api.md', 'src/testing/wire/README.md'])
      expect(PAGES).toContain(path);
    expect(PAGES.some((path) => path.startsWith('docs/api/'))).toBe(false);
  });

  it('every relative link and anchor of every page goes somewhere', () => {
    const problems = PAGES.flatMap((path) =>
      page(path).links.flatMap(({ href, line }) => {
        const problem = linkProblem(path, href, page, exists);
        return problem ? [`${path}:${line}: ${problem}`] : [];
      }),
    );
    expect(problems).toEqual([]);
  });

  it('every file a page names exists', () => {
    const problems = NAMES_CHECKED_IN.flatMap((path) =>
      read(path)
        .split('\n')
        .flatMap((text, i) => brokenNames(text, proseOf(path)).map((name) => `${path}:${i + 1}: names ${name}`)),
    );
    expect(problems).toEqual([]);
  });

  it('every file a code comment names exists', { timeout: 120_000 }, () => {
    const problems = REPOSITORY_FILES.filter(hasComments).flatMap((path) =>
      commentsOf(path, read(path)).flatMap(({ text, line }) =>
        brokenNames(text, path.startsWith('src/') ? 'src' : 'other').map((name) => `${path}:${line}: names ${name}`),
      ),
    );
    expect(problems).toEqual([]);
  });
});

describe('the checks themselves', () => {
  const pages = new Map<string, MarkdownPage>([
    [
      'docs/a.md',
      readMarkdown('# Streams: `for await` and finalResult()\n\n## Streams: `for await` and finalResult()\n\n[b](b.md#the-end) [up](../README.md#install)\n'),
    ],
    ['docs/b.md', readMarkdown('# B\n\n## The end\n')],
    ['README.md', readMarkdown('# R\n\n## Install\n')],
  ]);
  const files = new Set(pages.keys());
  const check = (href: string) =>
    linkProblem(
      'docs/a.md',
      href,
      (path) => pages.get(path)!,
      (path) => files.has(path),
    );

  it('slugs headings as GitHub does, numbering a repeated one', () => {
    expect([...pages.get('docs/a.md')!.anchors]).toEqual(['streams-for-await-and-finalresult', 'streams-for-await-and-finalresult-1']);
  });

  it('accepts links that resolve, and addresses', () => {
    for (const href of ['b.md#the-end', '../README.md#install', '#streams-for-await-and-finalresult-1', 'https://example.com/x.md', 'mailto:a@b.c'])
      expect(check(href)).toBeUndefined();
  });

  it('names a missing file, a missing heading, a root path and a path out of the repository', () => {
    expect(check('c.md')).toBe('c.md: no file or folder docs/c.md');
    expect(check('b.md#the-start')).toBe('b.md#the-start: no heading #the-start in docs/b.md');
    expect(check('#nowhere')).toBe('#nowhere: no heading #nowhere in docs/a.md');
    expect(check('/README.md')).toMatch(/^\/README\.md: a path from the root works on one host only/);
    expect(check('../../x.md')).toBe('../../x.md: outside the repository');
  });

  it('names a file that is gone, wherever the prose names it', () => {
    expect(brokenNames('see `src/core/idempotency.ts` and scripts/nothing-here.mjs', 'user')).toEqual(['src/core/idempotency.ts', 'scripts/nothing-here.mjs']);
    expect(brokenNames('(see idempotency.ts).', 'src')).toEqual(['idempotency.ts']);
    expect(brokenNames('pipeline/steps/nothing.ts and `runSupport.ts`', 'other')).toEqual(['pipeline/steps/nothing.ts', 'runSupport.ts']);
  });

  it('accepts files that exist, output folders, placeholders, addresses and package paths', () => {
    const fine =
      'src/core/transport.ts, `pipeline/steps/replay.ts`, transport.ts, examples/fixtures/, dist/cli/oz.js, docs/api/, ' +
      'src/generated/funcs/<tag>.ts, test/core/<folder>/, https://openapi-ts.dev/x.md, node_modules/oz-sdk/README.md, ./local.ts, profiles.json';
    expect(brokenNames(fine, 'other')).toEqual([]);
    expect(brokenNames('save it as `quickstart.mjs`; MCP tools/list', 'user')).toEqual([]);
  });

  it('in a comment of src/, a bare name must be a file of src/ or of the root', () => {
    expect(brokenNames('examples: quickstart.ts', 'other')).toEqual([]);
    expect(brokenNames('examples: quickstart.ts', 'src')).toEqual(['quickstart.ts']);
    expect(brokenNames('see tsup.config.ts', 'src')).toEqual([]);
  });
});
