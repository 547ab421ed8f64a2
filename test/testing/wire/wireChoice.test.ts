// The wire's choice read function by function (src/testing/wire/wire.ts): the Accept parser, the media type
// essence, the YAML Content-Types and the order of the three rules. wire.test.ts walks the same rules through a
// server; here each reading of a header a client may send has its own case.
import { describe, expect, it } from 'vitest';
import {
  isWire,
  isYamlType,
  mediaType,
  negotiateWire,
  preferredAcceptType,
  WIRE_CONTENT_TYPES,
  wireFromAccept,
  wireFromContentType,
} from '../../../src/testing/wire/wire.js';

describe('wireFromAccept', () => {
  it.each([
    ['application/json', 'json'],
    ['text/yaml', 'yaml'],
    ['application/yaml', 'yaml'],
    ['application/x-yaml', 'yaml'],
    ['text/markdown', 'markdown'],
    ['text/plain', 'text'],
  ] as const)('%s names the %s wire', (accept, wire) => {
    expect(wireFromAccept(accept)).toBe(wire);
  });

  it('reads types in any case and with spaces around them, and skips parameters other than q', () => {
    expect(wireFromAccept('  Text/Markdown ; charset=utf-8 ')).toBe('markdown');
    expect(wireFromAccept('APPLICATION/X-YAML')).toBe('yaml');
  });

  it('names no wire without an Accept, for ranges and for unknown types', () => {
    expect(wireFromAccept(null)).toBeUndefined();
    expect(wireFromAccept('')).toBeUndefined();
    expect(wireFromAccept('*/*, text/*, image/png')).toBeUndefined();
    // `toString` is no media type: the table is read by its own keys only.
    expect(wireFromAccept('toString, constructor')).toBeUndefined();
  });

  it('answers the same for the same header read again (its cache)', () => {
    for (let i = 0; i < 3; i++) {
      expect(wireFromAccept('text/plain;q=0.2, text/yaml;q=0.4')).toBe('yaml');
      expect(wireFromAccept('text/plain;q=0')).toBeUndefined();
    }
  });

  it('still answers after more than 256 different headers (the cache is emptied, not consulted stale)', () => {
    for (let i = 0; i < 300; i++) expect(wireFromAccept(`text/plain;q=0.${(i % 9) + 1}, x/${i}`)).toBe('text');
    expect(wireFromAccept('text/markdown')).toBe('markdown');
  });
});

describe('preferredAcceptType: q', () => {
  const TYPES = { 'a/a': 'A', 'b/b': 'B' } as const;

  it('takes the entry with the highest q; a tie goes to the first listed', () => {
    expect(preferredAcceptType('a/a;q=0.4, b/b;q=0.5', TYPES)).toBe('B');
    expect(preferredAcceptType('a/a;q=0.5, b/b;q=0.4', TYPES)).toBe('A');
    expect(preferredAcceptType('a/a;q=0.5, b/b;q=0.5', TYPES)).toBe('A');
    expect(preferredAcceptType('b/b, a/a', TYPES)).toBe('B');
  });

  it('reads the q parameter in any case, with spaces, after other parameters', () => {
    expect(preferredAcceptType('a/a;Q=0.1, b/b;q=0.2', TYPES)).toBe('B');
    expect(preferredAcceptType('a/a; level=1 ; q = 0.1 , b/b ;q=0.2', TYPES)).toBe('B');
    expect(preferredAcceptType('b/b;level=1, a/a;q=0.9', TYPES)).toBe('B');
    // A parameter other than q, numeric or not, leaves q at 1.
    expect(preferredAcceptType('a/a;level=0.5, b/b;q=0.9', TYPES)).toBe('A');
  });

  it('counts a q above 1 as 1 and a q below 0 as 0 (refused)', () => {
    expect(preferredAcceptType('a/a;q=5, b/b;q=1', TYPES)).toBe('A');
    expect(preferredAcceptType('b/b;q=0.9, a/a;q=5', TYPES)).toBe('A');
    expect(preferredAcceptType('a/a;q=-1', TYPES)).toBeNull();
    expect(preferredAcceptType('a/a;q=-1, b/b;q=0.001', TYPES)).toBe('B');
  });

  it('counts a q that is not a number as 1, and q=0 refuses', () => {
    expect(preferredAcceptType('b/b;q=0.9, a/a;q=abc', TYPES)).toBe('A');
    expect(preferredAcceptType('b/b;q=0.9, a/a;q', TYPES)).toBe('A');
    expect(preferredAcceptType('a/a;q=0', TYPES)).toBeNull();
    expect(preferredAcceptType('a/a;q=0, b/b;q=0', TYPES)).toBeNull();
  });

  it('names nothing without an Accept', () => {
    expect(preferredAcceptType(null, TYPES)).toBeNull();
    expect(preferredAcceptType('', TYPES)).toBeNull();
  });
});

describe('mediaType and isYamlType', () => {
  it('is the essence: lower case, parameters and spaces dropped; empty for no header', () => {
    expect(mediaType(' Text/YAML ; charset=utf-8')).toBe('text/yaml');
    expect(mediaType('application/json')).toBe('application/json');
    expect(mediaType(null)).toBe('');
    expect(mediaType(';charset=utf-8')).toBe('');
    expect(mediaType('')).toBe('');
  });

  it('names YAML for the three YAML types only, in any case and with parameters', () => {
    for (const type of ['text/yaml', 'application/yaml', 'application/x-yaml', 'Application/YAML; charset=utf-8']) expect(isYamlType(type)).toBe(true);
    for (const type of ['application/json', 'text/plain', 'text/x-yaml', null]) expect(isYamlType(type)).toBe(false);
  });
});

describe('the three rules', () => {
  it('isWire holds for the four wire names only', () => {
    for (const wire of ['json', 'yaml', 'markdown', 'text']) expect(isWire(wire)).toBe(true);
    for (const other of ['xml', 'JSON', '', undefined, 1]) expect(isWire(other)).toBe(false);
  });

  it('an explicit format wins over Accept, Accept over the Content-Type; else json', () => {
    expect(negotiateWire('text', 'text/yaml', 'text/yaml')).toBe('text');
    expect(negotiateWire(undefined, 'text/markdown', 'text/yaml')).toBe('markdown');
    expect(negotiateWire(undefined, '*/*', 'text/yaml')).toBe('yaml');
    expect(negotiateWire(undefined, null, 'application/json')).toBe('json');
    expect(negotiateWire(undefined, null, null)).toBe('json');
    expect(wireFromContentType('application/x-yaml')).toBe('yaml');
    expect(wireFromContentType('text/plain')).toBe('json');
  });

  it('answers each wire with its content type', () => {
    expect(WIRE_CONTENT_TYPES).toEqual({
      json: 'application/json',
      yaml: 'text/yaml; charset=utf-8',
      markdown: 'text/markdown; charset=utf-8',
      text: 'text/plain; charset=utf-8',
    });
  });
});
