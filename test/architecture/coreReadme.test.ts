/**
 * src/core/README.md is the core's index: it names every folder of src/core/ (as `folder/`), and every file it
 * names (a file, or a folder and a file, relative to src/core/) exists, so the index cannot drift from the code.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CORE = fileURLToPath(new URL('../../src/core/', import.meta.url));
const readme = readFileSync(join(CORE, 'README.md'), 'utf8');
const named = [...readme.matchAll(/`([\w/]+\.ts)`/g)].map((match) => match[1]!);

describe('src/core/README.md', () => {
  it('indexes every folder of src/core', () => {
    const folders = readdirSync(CORE).filter((name) => statSync(join(CORE, name)).isDirectory());
    expect(folders.length).toBeGreaterThan(0);
    expect(folders.filter((folder) => !readme.includes(`\`${folder}/\``))).toEqual([]);
  });

  it('names only files that exist', () => {
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((file) => !existsSync(join(CORE, file)))).toEqual([]);
  });

  it('names the transport and every step file of a call', () => {
    for (const step of ['transport.ts', 'callSettings.ts', 'encodeRequestBody.ts', 'attemptSignal.ts', 'middlewareAttempt.ts', 'redirect.ts', 'retryLoop.ts', 'decodeAnswer.ts', 'answerValidation.ts', 'lostAnswerCall.ts', 'deprecation.ts']) {
      expect(named, step).toContain(step);
    }
  });
});
