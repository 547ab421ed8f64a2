/**
 * A call through src/core reads in a few files: the longest chain of static imports inside src/core (a path of
 * distinct files, each importing the next; `a -> b -> c` is 3 files) is at most MAX_CHAIN files, and no file comes
 * back to itself (an import circle). Type-only imports count too (a reader follows them as well); a dynamic
 * `import()` (an optional part, loaded on first use) does not. The imports are read with TypeScript's own parser.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const MAX_CHAIN = 10;
const CORE = fileURLToPath(new URL('../../src/core/', import.meta.url));

function sourcesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourcesUnder(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The files of src/core that `file` imports statically (`import`, `import type`, `export ... from`). */
function coreImportsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const targets: string[] = [];
  for (const statement of source.statements) {
    const specifier = ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) ? statement.moduleSpecifier : undefined;
    if (specifier === undefined || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
    const target = resolve(dirname(file), specifier.text.replace(/\.js$/, '.ts'));
    if (target.startsWith(CORE)) targets.push(target);
  }
  return targets;
}

const files = sourcesUnder(CORE);
const imports = new Map(files.map((file) => [file, coreImportsOf(file)]));
const name = (file: string) => relative(CORE, file);

/**
 * The longest chain of `imports` (a depth-first walk from each file, each file's longest chain kept) and the circles
 * met (a file met again on the walk's own path).
 */
function chains(
  files: readonly string[],
  imports: ReadonlyMap<string, readonly string[]>,
  name: (file: string) => string,
): { longest: string[]; circles: string[][] } {
  const longestFrom = new Map<string, string[]>();
  const onPath: string[] = [];
  const circles: string[][] = [];
  const walk = (file: string): string[] => {
    const known = longestFrom.get(file);
    if (known !== undefined) return known;
    const at = onPath.indexOf(file);
    if (at !== -1) {
      circles.push([...onPath.slice(at), file].map(name));
      return [];
    }
    onPath.push(file);
    let best: string[] = [];
    for (const target of imports.get(file) ?? []) {
      const chain = walk(target);
      if (chain.length > best.length) best = chain;
    }
    onPath.pop();
    const chain = [file, ...best];
    longestFrom.set(file, chain);
    return chain;
  };
  let longest: string[] = [];
  for (const file of files) {
    const chain = walk(file);
    if (chain.length > longest.length) longest = chain;
  }
  return { longest: longest.map(name), circles };
}

describe('the import chains of src/core', () => {
  const { longest, circles } = chains(files, imports, name);

  it('finds the longest chain and a circle in a graph made for it', () => {
    const graph = new Map([
      ['a', ['b', 'c']],
      ['b', ['d']],
      ['c', []],
      ['d', []],
      ['x', ['y']],
      ['y', ['x']],
    ]);
    const found = chains([...graph.keys()], graph, (file) => file);
    expect(found.longest).toEqual(['a', 'b', 'd']);
    expect(found.circles).toEqual([['x', 'y', 'x']]);
  });

  it('reads the imports of every file', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(imports.get(join(CORE, 'transport.ts'))?.map(name)).toContain('callChain.ts');
  });

  it('has no import circle', () => {
    expect(circles).toEqual([]);
  });

  it(`has no chain longer than ${MAX_CHAIN} files`, () => {
    expect(longest.length, `the longest chain: ${longest.join(' -> ')}`).toBeLessThanOrEqual(MAX_CHAIN);
  });
});
