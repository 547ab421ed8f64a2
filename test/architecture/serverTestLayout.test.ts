/**
 * test/testing/ mirrors src/testing/: a test of the server sits in the folder of the concept it tests, and the only
 * files at its top are the tests of the files at the top of src/testing/ (the entry points, the composition root).
 */
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Listing {
  readonly folders: readonly string[];
  readonly files: readonly string[];
}

function listing(dir: string): Listing {
  const names = readdirSync(`${ROOT}${dir}`).sort();
  const isFolder = (name: string) => statSync(`${ROOT}${dir}/${name}`).isDirectory();
  return { folders: names.filter(isFolder), files: names.filter((n) => !isFolder(n)) };
}

/** Where test/testing/ does not mirror src/testing/. */
function layoutProblems(tests: Listing, sources: Listing): string[] {
  const problems: string[] = [];
  for (const folder of tests.folders) {
    if (!sources.folders.includes(folder)) problems.push(`test/testing/${folder}/ has no src/testing/${folder}/ to mirror`);
  }
  for (const file of tests.files) {
    const tested = /^(.+)\.test\.ts$/.exec(file)?.[1];
    if (tested === undefined || !sources.files.includes(`${tested}.ts`)) {
      problems.push(`test/testing/${file} sits at the top: put it in the folder of what it tests`);
    }
  }
  return problems;
}

describe('test/testing/ mirrors src/testing/', () => {
  it('every folder mirrors a folder of src/testing/, every top file tests a top file of src/testing/', () => {
    expect(layoutProblems(listing('test/testing'), listing('src/testing'))).toEqual([]);
  });

  it('sees a test or helper left at the top, and a folder that mirrors nothing', () => {
    const sources = listing('src/testing');
    const tests = listing('test/testing');
    const drifted = { folders: [...tests.folders, 'misc'], files: [...tests.files, 'slips.test.ts', 'helpers.ts'] };
    expect(layoutProblems(drifted, sources)).toEqual([
      'test/testing/misc/ has no src/testing/misc/ to mirror',
      expect.stringMatching(/^test\/testing\/slips\.test\.ts sits at the top/),
      expect.stringMatching(/^test\/testing\/helpers\.ts sits at the top/),
    ]);
  });
});
