// The public surface of each entry point: the names it exports at run time, and the names it exports as types
// only. A change fails here until test/architecture/publicSurface.snapshot.json is rewritten on purpose:
//   npx vitest run test/architecture/publicSurface.test.ts -u
// and the diff of that file is reviewed with the change.
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ENTRY_POINTS = {
  'oz-sdk': '../../src/index.ts',
  'oz-sdk/mcp': '../../src/mcp/index.ts',
  'oz-sdk/funcs': '../../src/funcs/index.ts',
  'oz-sdk/testing': '../../src/testing/index.ts',
} as const;

const source = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/** Every name each entry point exports, values and types alike, as the compiler sees the module. */
function exportedNames(): Record<string, string[]> {
  const configPath = source('../../tsconfig.json');
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, source('../..'));
  const files = Object.values(ENTRY_POINTS).map(source);
  const program = ts.createProgram(files, { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const out: Record<string, string[]> = {};
  for (const [name, relative] of Object.entries(ENTRY_POINTS)) {
    const file = program.getSourceFile(source(relative));
    const module = file && checker.getSymbolAtLocation(file);
    if (!module) throw new Error(`${relative}: not a module`);
    out[name] = checker
      .getExportsOfModule(module)
      .map((symbol) => symbol.getName())
      .sort();
  }
  return out;
}

describe('the public surface', () => {
  it('of every entry point is the reviewed one (run time exports and type-only exports)', async () => {
    const all = exportedNames();
    const surface: Record<string, { runtime: string[]; types: string[] }> = {};
    for (const [name, relative] of Object.entries(ENTRY_POINTS)) {
      const runtime = Object.keys((await import(relative)) as object).sort();
      surface[name] = { runtime, types: all[name]!.filter((n) => !runtime.includes(n)) };
      expect(
        runtime.filter((n) => !all[name]!.includes(n)),
        `${name}: run-time names the compiler does not see`,
      ).toEqual([]);
    }
    await expect(`${JSON.stringify(surface, null, 2)}\n`).toMatchFileSnapshot('./publicSurface.snapshot.json');
  }, 60_000);

  it('is written out name by name: no `export *` (or `export * as`) in an entry file', async () => {
    const { readFileSync } = await import('node:fs');
    const starExports = (text: string) =>
      ts
        .createSourceFile('entry.ts', text, ts.ScriptTarget.Latest, true)
        .statements.filter((s) => ts.isExportDeclaration(s) && (s.exportClause === undefined || ts.isNamespaceExport(s.exportClause)))
        .map((s) => s.getText());
    expect(starExports("export * from './a.js';\nexport type * as b from './b.js';\nexport { c } from './c.js';")).toHaveLength(2);
    for (const relative of Object.values(ENTRY_POINTS)) expect(starExports(readFileSync(source(relative), 'utf8')), relative).toEqual([]);
  });
});
