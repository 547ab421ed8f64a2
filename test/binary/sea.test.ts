/**
 * What `npm run build:binary` checks before it writes anything (scripts/binary/sea.ts): a Node too old for its SEA
 * config, a Node binary without the SEA fuse, and one already injected are each refused with what to do; the
 * config it hands Node silences the experimental warning.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SEA_FUSE, binaryName, seaConfigOf, seaProblemOf } from '../../scripts/binary/sea.js';

const binary = (text: string) => Buffer.from(`\0ELF...${text}...`);

describe('seaProblemOf', () => {
  it("accepts this machine's Node, an official build with the fuse unflipped", () => {
    expect(seaProblemOf(process.version, readFileSync(process.execPath))).toBeUndefined();
  });

  it('refuses a Node older than 20.12, naming the version it needs', () => {
    expect(seaProblemOf('v20.11.1', binary(`${SEA_FUSE}:0`))).toBe(
      'Node v20.11.1 cannot build it: single executable applications with this config need Node 20.12 or later',
    );
    expect(seaProblemOf('v18.20.0', binary(`${SEA_FUSE}:0`))).toMatch(/^Node v18\.20\.0 cannot build it/);
    expect(seaProblemOf('v22.1.0', binary(`${SEA_FUSE}:0`))).toBeUndefined();
  });

  it('refuses a Node binary without the fuse (a build made without SEA support)', () => {
    expect(seaProblemOf('v20.20.2', binary('no fuse here'))).toBe(
      `this Node binary has no single-executable fuse (${SEA_FUSE}): use an official build of Node.js from nodejs.org or the npm registry`,
    );
  });

  it('refuses a Node binary that is itself a single executable (its fuse flipped)', () => {
    expect(seaProblemOf('v20.20.2', binary(`${SEA_FUSE}:1`))).toBe(
      'this Node binary is itself a single executable application: run the build with a plain Node.js',
    );
  });
});

describe('the SEA config and the file name', () => {
  it('one script, no experimental warning, the code cache in the blob', () => {
    expect(seaConfigOf('/tmp/oz-mock.cjs', '/tmp/oz-mock.blob')).toEqual({
      main: '/tmp/oz-mock.cjs',
      output: '/tmp/oz-mock.blob',
      disableExperimentalSEAWarning: true,
      useCodeCache: true,
    });
  });

  it('oz-mock, oz-mock.exe on Windows', () => {
    expect([binaryName('linux'), binaryName('darwin'), binaryName('win32')]).toEqual(['oz-mock', 'oz-mock', 'oz-mock.exe']);
  });
});
