// What `oz` may write out again: a value without shared objects always; one with YAML aliases only within 1 MiB.
import { describe, expect, it } from 'vitest';
import jsYaml from 'js-yaml';
import { expandsWithin, MAX_EXPANDED_BYTES } from '../../src/cli/expansionBound.js';
import { answerOutput, ExpansionError, resultText } from '../../src/cli/output.js';

const bomb = (levels: number): unknown => {
  let level: unknown[] = Array(10).fill('x');
  for (let i = 1; i < levels; i++) level = Array(10).fill(level);
  return { top: level };
};

describe('expandsWithin', () => {
  it('a value without shared objects fits whatever its size', () => {
    expect(expandsWithin({ data: Array.from({ length: 50_000 }, (_, i) => ({ i, text: 'y'.repeat(40) })) })).toBe(true);
    expect(expandsWithin('a string', 1)).toBe(true);
  });

  it('shared objects count as often as they are referred to: 9 levels of 10 do not fit, 4 do', () => {
    expect(expandsWithin(bomb(9))).toBe(false);
    expect(expandsWithin(bomb(4))).toBe(true);
    expect(expandsWithin(jsYaml.load('a: &a [1, 2]\nb: *a\n'))).toBe(true);
  });

  it('a cycle never fits; the bound is 1 MiB', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(expandsWithin(cyclic)).toBe(false);
    expect(MAX_EXPANDED_BYTES).toBe(1024 * 1024);
    const shared = { s: 'z'.repeat(1000) };
    expect(expandsWithin(Array(1000).fill(shared))).toBe(true);
    expect(expandsWithin(Array(2000).fill(shared))).toBe(false);
  });
});

describe('answerOutput', () => {
  const bytes = new TextEncoder().encode('{"n":9007199254740993}');

  it('piped, in the wire it came in: the bytes themselves; on a terminal, JSON pretty', async () => {
    const wire = { bytes, contentType: 'application/json; charset=utf-8' };
    expect(await answerOutput({ n: 9007199254740992 }, wire, 'json', false)).toBe(bytes);
    expect(await answerOutput({ n: 1 }, wire, 'json', true)).toBe('{\n  "n": 1\n}\n');
  });

  it('an alias bomb is written as it came, and without its bytes is ExpansionError, never written out', async () => {
    const wire = { bytes: new TextEncoder().encode('a: &a [x]\n'), contentType: 'text/yaml' };
    expect(await answerOutput(bomb(9), wire, 'json', true)).toBe('a: &a [x]\n');
    expect(await answerOutput(bomb(9), wire, 'json', false)).toBe(wire.bytes);
    await expect(resultText(bomb(9), 'yaml', false)).rejects.toBeInstanceOf(ExpansionError);
  });
});
