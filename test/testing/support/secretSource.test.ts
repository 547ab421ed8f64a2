/** A secret given at start: from its flag, its file flag (the first line, trimmed) or its variable, in that order. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { givenSecret } from '../../../src/testing/support/secretSource.js';

const dir = mkdtempSync(join(tmpdir(), 'oz-secret-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NAMES = { flag: '--api-key', fileFlag: '--api-key-file', env: 'OZ_MOCK_API_KEY' };

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The message `givenSecret` throws for these inputs. */
function problem(inputs: Parameters<typeof givenSecret>[1]): string {
  try {
    givenSecret(NAMES, inputs);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('no problem thrown');
}

describe('givenSecret', () => {
  it('takes each source alone, naming it', () => {
    const path = file('one.txt', 'from-the-file\n');
    expect(givenSecret(NAMES, { flag: 'from-the-flag', file: undefined, env: undefined })).toEqual({
      value: 'from-the-flag',
      source: 'flag',
      origin: '--api-key',
    });
    expect(givenSecret(NAMES, { flag: undefined, file: path, env: undefined })).toEqual({
      value: 'from-the-file',
      source: 'file',
      origin: `--api-key-file ${path}`,
    });
    expect(givenSecret(NAMES, { flag: undefined, file: undefined, env: 'from-the-env' })).toEqual({
      value: 'from-the-env',
      source: 'env',
      origin: 'OZ_MOCK_API_KEY',
    });
  });

  it('answers undefined when nothing was given; an empty variable is unset', () => {
    expect(givenSecret(NAMES, { flag: undefined, file: undefined, env: undefined })).toBeUndefined();
    expect(givenSecret(NAMES, { flag: undefined, file: undefined, env: '' })).toBeUndefined();
  });

  it('a flag beats the environment, a file beats the environment', () => {
    const path = file('two.txt', 'from-the-file');
    expect(givenSecret(NAMES, { flag: 'from-the-flag', file: undefined, env: 'from-the-env' })).toMatchObject({ value: 'from-the-flag', source: 'flag' });
    expect(givenSecret(NAMES, { flag: undefined, file: path, env: 'from-the-env' })).toMatchObject({ value: 'from-the-file', source: 'file' });
  });

  it('refuses a flag with its file flag, even with the same value', () => {
    const path = file('same.txt', 'same');
    expect(problem({ flag: 'same', file: path, env: undefined })).toBe('--api-key and --api-key-file exclude each other: give the value one way');
  });

  it("reads the file's first line, trimmed: a trailing newline, CRLF, spaces, further lines", () => {
    for (const [name, text] of [
      ['plain.txt', 'sekrit'],
      ['newline.txt', 'sekrit\n'],
      ['crlf.txt', 'sekrit\r\n'],
      ['spaces.txt', '  sekrit \t\n'],
      ['lines.txt', 'sekrit\nanother line\n'],
    ] as const) {
      expect({ name, value: givenSecret(NAMES, { flag: undefined, file: file(name, text), env: undefined })?.value }).toEqual({ name, value: 'sekrit' });
    }
  });

  it('an unreadable file: the flag, the path and the reason', () => {
    const missing = join(dir, 'missing.txt');
    expect(problem({ flag: undefined, file: missing, env: undefined })).toBe(`--api-key-file: cannot read ${missing} (ENOENT)`);
    expect(problem({ flag: undefined, file: dir, env: undefined })).toBe(`--api-key-file: cannot read ${dir} (EISDIR)`);
  });

  it('an empty file, or one whose first line is blank: the flag and the path, never the rest of the file', () => {
    const empty = file('empty.txt', '');
    expect(problem({ flag: undefined, file: empty, env: undefined })).toBe(`--api-key-file: ${empty} is empty (the value goes on its first line)`);
    const blank = file('blank.txt', '   \nsekrit-on-line-two\n');
    const message = problem({ flag: undefined, file: blank, env: undefined });
    expect(message).toBe(`--api-key-file: ${blank} is empty (the value goes on its first line)`);
    expect(message).not.toContain('sekrit');
  });
});
