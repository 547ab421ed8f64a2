/**
 * src/core/README.md is the core's index: it names every folder of src/core/ (as `folder/`) and every file (a file,
 * or a folder and a file, relative to src/core/), every file it names exists, and its steps of a call name their
 * folders in the order a call goes through them, so the index cannot drift from the code.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CORE = fileURLToPath(new URL('../../src/core/', import.meta.url));
const readme = readFileSync(join(CORE, 'README.md'), 'utf8');
const named = [...readme.matchAll(/`([\w/]+\.ts)`/g)].map((match) => match[1]!);

function sourcesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourcesUnder(path);
    return name.endsWith('.ts') ? [relative(CORE, path)] : [];
  });
}

// The folders of a call's steps, in the order a call goes through them.
const STEPS = ['options/', 'request/', 'span/', 'answer/', 'recovery/', 'retry/', 'attempt/', 'middleware/', 'redirect/', 'fetch/', 'result/'];

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

  it('names every file of src/core', () => {
    const files = sourcesUnder(CORE);
    expect(files.length).toBeGreaterThan(20);
    expect(files.filter((file) => !named.includes(file))).toEqual([]);
  });

  it("lists a call's steps in order, each naming its folder", () => {
    const steps = readme.slice(readme.indexOf('## A call, step by step'), readme.indexOf('## Where is X'));
    const items = steps.split(/\n\d+\. /).slice(1);
    expect(items.length).toBeGreaterThanOrEqual(STEPS.length);
    const order = STEPS.map((folder) => items.findIndex((item) => item.includes(`\`${folder}\``)));
    expect(order.every((at) => at !== -1)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('names the transport and every step file of a call', () => {
    for (const step of [
      'transport.ts',
      'callChain.ts',
      'options/callSettings.ts',
      'request/callRequest.ts',
      'span/traceSpan.ts',
      'answer/decodeAnswer.ts',
      'recovery/recoverLostAnswer.ts',
      'retry/retryAttempts.ts',
      'attempt/timeAttempt.ts',
      'middleware/runMiddleware.ts',
      'redirect/followRedirects.ts',
      'fetch/fetchOnce.ts',
      'validation/answerValidation.ts',
      'result/apiPromise.ts',
    ]) {
      expect(named, step).toContain(step);
    }
  });
});
