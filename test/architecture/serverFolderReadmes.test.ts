/**
 * Every folder of src/testing/ has a README.md whose import rule is the one `.dependency-cruiser.cjs` enforces and
 * whose "imported by" line names the folders that import it, so the READMEs cannot drift from the code: the rules are
 * read from the config itself (each candidate import is put to its forbidden rules), the importers from the sources.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER = 'src/testing';

interface PathSelector {
  readonly path?: string;
  readonly pathNot?: string;
  readonly circular?: boolean;
}
interface ForbiddenRule {
  readonly name: string;
  readonly from: PathSelector;
  readonly to: PathSelector;
}
const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as { forbidden: ForbiddenRule[] };

const isDirectory = (path: string) => statSync(`${ROOT}${path}`).isDirectory();
const list = (dir: string) => readdirSync(`${ROOT}${dir}`).sort();

/** The folders of src/testing/ (its concept folders). */
const FOLDERS = list(SERVER).filter((name) => isDirectory(`${SERVER}/${name}`));

/** Whether a folder's entry can be imported: a folder or a source file (a README.md beside them cannot). */
const importable = (dir: string) => (name: string) => isDirectory(`${dir}/${name}`) || /\.[cm]?ts$/.test(name);

/** What a file of src/testing/ could import, each as a path dependency-cruiser would see, and its name in a README. */
function importCandidates(): Array<{ name: string; path: string }> {
  const out: Array<{ name: string; path: string }> = [];
  for (const name of list(SERVER).filter(importable(SERVER)))
    out.push(isDirectory(`${SERVER}/${name}`) ? { name: `${name}/`, path: `${SERVER}/${name}/some.ts` } : { name, path: `${SERVER}/${name}` });
  for (const name of list('src').filter((n) => n !== 'testing' && importable('src')(n)))
    out.push(isDirectory(`src/${name}`) ? { name: `src/${name}/`, path: `src/${name}/some.ts` } : { name: `src/${name}`, path: `src/${name}` });
  out.push({ name: 'openapi.json', path: 'openapi.json' });
  return out;
}

const selects = (selector: PathSelector, path: string) =>
  (selector.path === undefined || new RegExp(selector.path).test(path)) && (selector.pathNot === undefined || !new RegExp(selector.pathNot).test(path));

/** What a file of `folder` may import by the config's forbidden rules (its own folder left out). */
function allowedImports(folder: string, rules: readonly ForbiddenRule[]): string[] {
  const from = `${SERVER}/${folder}/some.ts`;
  return importCandidates()
    .filter(({ name }) => name !== `${folder}/`)
    .filter(({ path }) => !rules.some((rule) => !rule.to.circular && selects(rule.from, from) && selects(rule.to, path)))
    .map(({ name }) => name)
    .sort();
}

/** The TypeScript files under a folder, repository-relative. */
function sourceFiles(dir: string): string[] {
  return list(dir).flatMap((name) => {
    const path = `${dir}/${name}`;
    return isDirectory(path) ? sourceFiles(path) : /\.[cm]?ts$/.test(name) ? [path] : [];
  });
}

/** Where a file is, as a README names it: `folder/` for a file in a folder of src/testing/, else its own name. */
function place(file: string): string {
  const inServer = posix.relative(SERVER, file);
  if (inServer.startsWith('..')) return file;
  const [first, ...rest] = inServer.split('/');
  return rest.length > 0 ? `${first}/` : first!;
}

/** For each folder of src/testing/ (`name/`), the places of src/ that import a file of it (comments are not imports). */
function importersByFolder(): Map<string, Set<string>> {
  const importers = new Map<string, Set<string>>();
  for (const file of sourceFiles('src')) {
    const { importedFiles } = ts.preProcessFile(readFileSync(`${ROOT}${file}`, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = posix.normalize(posix.join(posix.dirname(file), fileName)).replace(/\.js$/, '.ts');
      const folder = place(target);
      if (!folder.endsWith('/') || folder === place(file)) continue;
      if (!importers.has(folder)) importers.set(folder, new Set());
      importers.get(folder)!.add(place(file));
    }
  }
  return importers;
}

/** The backquoted names on the README's line that starts with `label`, or null when it has no such line. */
function namesOnLine(readme: string, label: string): string[] | null {
  const line = readme.split('\n').find((l) => l.startsWith(`- **${label}:**`));
  return line === undefined ? null : [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).sort();
}

/** What a folder's README gets wrong: its import rule, its importers, the files it names. */
function readmeProblems(folder: string, readme: string, rules: readonly ForbiddenRule[], importers: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const mayImport = namesOnLine(readme, 'May import');
  const allowed = allowedImports(folder, rules);
  if (mayImport === null) problems.push(`${folder}/README.md has no "- **May import:**" line`);
  else if (mayImport.join(' ') !== allowed.join(' '))
    problems.push(`${folder}/README.md: May import ${mayImport.join(' ')}; the dependency-cruiser rules allow ${allowed.join(' ')}`);
  const importedBy = namesOnLine(readme, 'Imported by');
  const actual = [...importers].sort();
  if (importedBy === null) problems.push(`${folder}/README.md has no "- **Imported by:**" line`);
  else if (importedBy.join(' ') !== actual.join(' '))
    problems.push(`${folder}/README.md: Imported by ${importedBy.join(' ')}; the sources show ${actual.join(' ')}`);
  const files = readme.split('## Files')[1];
  if (files === undefined) problems.push(`${folder}/README.md has no "## Files" section`);
  for (const [, name] of (files ?? '').matchAll(/^- `([^`]+)`/gm)) {
    if (!existsSync(`${ROOT}${SERVER}/${folder}/${name}`)) problems.push(`${folder}/README.md names ${name}, which is not in ${SERVER}/${folder}/`);
  }
  return problems;
}

const readmeOf = (folder: string) => {
  const path = `${ROOT}${SERVER}/${folder}/README.md`;
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
};

describe('the READMEs of src/testing/', () => {
  const importers = importersByFolder();

  it('every folder of src/testing/ is a layer of the dependency-cruiser config, and every layer a folder', () => {
    const layers = config.forbidden.map((r) => /^server-(.+)-imports-below$/.exec(r.name)?.[1]).filter((l) => l !== undefined);
    expect([...layers].sort()).toEqual(FOLDERS);
  });

  it.each(FOLDERS)('%s/README.md names its import rule, its importers and files that exist', (folder) => {
    const readme = readmeOf(folder);
    expect(readme, `${SERVER}/${folder}/README.md is missing`).not.toBeNull();
    expect(readmeProblems(folder, readme!, config.forbidden, importers.get(`${folder}/`) ?? new Set())).toEqual([]);
  });

  it('sees a README that drifted: a folder the rules forbid, a missing importer, a file that is not there', () => {
    const support = readmeOf('support')!;
    const wrongRule = support.replace('- **May import:**', '- **May import:** `time/`,');
    expect(readmeProblems('support', wrongRule, config.forbidden, importers.get('support/')!)).toEqual([
      expect.stringMatching(/^support\/README\.md: May import .*time\/.*; the dependency-cruiser rules allow /),
    ]);
    const moreImporters = new Set([...importers.get('support/')!, 'newFolder/']);
    expect(readmeProblems('support', support, config.forbidden, moreImporters)).toEqual([
      expect.stringMatching(/^support\/README\.md: Imported by .*; the sources show .*newFolder\//),
    ]);
    const gone = support.replace('## Files\n', '## Files\n- `gone.ts`: a file that was removed\n');
    expect(readmeProblems('support', gone, config.forbidden, importers.get('support/')!)).toEqual([
      'support/README.md names gone.ts, which is not in src/testing/support/',
    ]);
  });

  it('reads the rules, not a copy of them: a config that lets support/ import time/ changes what support/ may import', () => {
    const layerRule = config.forbidden.find((r) => r.name === 'server-support-imports-below')!;
    const loosened = config.forbidden.map((r) => (r === layerRule ? { ...r, to: { ...r.to, pathNot: '^src/testing/(support|time)/' } } : r));
    expect(allowedImports('support', loosened)).toContain('time/');
    expect(allowedImports('support', config.forbidden)).not.toContain('time/');
  });
});
