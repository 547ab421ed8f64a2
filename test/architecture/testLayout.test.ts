/**
 * test/ mirrors src/ folder by folder, so a test is found by the path of what it tests: every folder of src/ (but
 * src/generated/'s own) has its folder in test/ (`test/core/retry/` for `src/core/retry/`; `test/client/` for the
 * file `src/client.ts`), and every folder holding a test file mirrors a folder or file of src/, unless it is one of
 * the cross-cutting suites listed here and, each with its reason, in test/README.md. In test/testing/, the only
 * files at the top test the files at the top of src/testing/ (the entry points, the composition root).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The suites of test/ that test the repository across src/ folders, or something beside src/. */
const CROSS_CUTTING = ['architecture', 'docs', 'examples', 'reliability', 'bench', 'binary', 'types'] as const;

/** Folders (relative to the repository) under `dir`, itself included, whose name is not `node_modules`. */
function foldersUnder(dir: string): string[] {
  return [
    dir,
    ...readdirSync(`${ROOT}${dir}`).flatMap((name) => {
      const path = `${dir}/${name}`;
      return name !== 'node_modules' && statSync(`${ROOT}${path}`).isDirectory() ? foldersUnder(path) : [];
    }),
  ];
}

function holdsTests(dir: string): boolean {
  return readdirSync(`${ROOT}${dir}`).some((name) => name.endsWith('.test.ts'));
}

/** The test folder of a src folder: `src/core/retry` -> `test/core/retry`. */
const testFolderOf = (source: string) => source.replace(/^src/, 'test');

/** The src folders that have no test folder (src/generated/'s subfolders aside: codegen writes them). */
function untestedFolders(sources: readonly string[], exists: (path: string) => boolean): string[] {
  return sources.filter((s) => s !== 'src' && !s.startsWith('src/generated/') && !exists(testFolderOf(s))).map((s) => `${s}/ has no ${testFolderOf(s)}/`);
}

/** The test folders holding tests that mirror no folder or file of src/ and sit in no cross-cutting suite. */
function strayFolders(testFolders: readonly string[], exists: (path: string) => boolean): string[] {
  const mirrors = (folder: string): boolean => {
    const source = folder.replace(/^test/, 'src');
    if (exists(source) || exists(`${source}.ts`)) return true;
    const parent = folder.slice(0, folder.lastIndexOf('/'));
    // A folder inside one that tests a file (test/client/domEnvironments/ for src/client.ts).
    return parent !== 'test' && exists(`${parent.replace(/^test/, 'src')}.ts`);
  };
  const crossCutting = (folder: string) => CROSS_CUTTING.some((suite) => folder === `test/${suite}` || folder.startsWith(`test/${suite}/`));
  return testFolders
    .filter((f) => f !== 'test' && !crossCutting(f) && !mirrors(f))
    .map((f) => `${f}/ mirrors nothing in src/: move its tests to the folder of what they test`);
}

/** The files at the top of test/testing/ that test no file at the top of src/testing/. */
function topFileProblems(testFiles: readonly string[], sourceFiles: readonly string[]): string[] {
  return testFiles
    .filter((file) => {
      const tested = /^(.+)\.test\.ts$/.exec(file)?.[1];
      return tested === undefined || !sourceFiles.includes(`${tested}.ts`);
    })
    .map((file) => `test/testing/${file} sits at the top: put it in the folder of what it tests`);
}

const onDisk = (path: string) => existsSync(`${ROOT}${path}`);
const filesOf = (dir: string) => readdirSync(`${ROOT}${dir}`).filter((n) => !statSync(`${ROOT}${dir}/${n}`).isDirectory());

describe('test/ mirrors src/', () => {
  it('every folder of src/ has its folder in test/', () => {
    expect(untestedFolders(foldersUnder('src'), onDisk)).toEqual([]);
  });

  it('every folder holding tests mirrors a folder or file of src/, or is in a cross-cutting suite', () => {
    const testFolders = foldersUnder('test').filter(holdsTests);
    expect(testFolders.length).toBeGreaterThan(30);
    expect(strayFolders(testFolders, onDisk)).toEqual([]);
  });

  it('test/README.md names each cross-cutting suite', () => {
    const readme = readFileSync(`${ROOT}test/README.md`, 'utf8');
    expect(CROSS_CUTTING.filter((suite) => !readme.includes(`\`test/${suite}/\``))).toEqual([]);
  });

  it('every file at the top of test/testing/ tests a file at the top of src/testing/', () => {
    expect(topFileProblems(filesOf('test/testing'), filesOf('src/testing'))).toEqual([]);
  });

  it('sees a src folder without tests, a test folder that mirrors nothing, and a file left at the top of test/testing/', () => {
    const exists = (path: string) => ['src/core', 'src/core/retry', 'src/client.ts', 'test/core'].includes(path);
    expect(untestedFolders(['src', 'src/core', 'src/core/retry', 'src/generated/resources'], exists)).toEqual(['src/core/retry/ has no test/core/retry/']);
    expect(strayFolders(['test/core', 'test/misc', 'test/core/flat', 'test/client', 'test/client/dom', 'test/docs/links'], exists)).toEqual([
      'test/misc/ mirrors nothing in src/: move its tests to the folder of what they test',
      'test/core/flat/ mirrors nothing in src/: move its tests to the folder of what they test',
    ]);
    expect(topFileProblems(['server.test.ts', 'slips.test.ts', 'helpers.ts'], ['server.ts', 'index.ts'])).toEqual([
      'test/testing/slips.test.ts sits at the top: put it in the folder of what it tests',
      'test/testing/helpers.ts sits at the top: put it in the folder of what it tests',
    ]);
  });
});
