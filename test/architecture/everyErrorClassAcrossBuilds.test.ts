/**
 * Every `OzError` class the package exports (`oz-sdk` and `oz-sdk/mcp`: the SDK's own, the status classes, every
 * generated code class, the MCP errors) against every other, across the built package's two builds: an object of
 * one build's class is an instance of the other build's classes exactly where the class hierarchy says so. Objects
 * are made from the class's prototype (`Object.create`): `instanceof` reads the prototype chain only, and the
 * classes' constructors take different arguments. An error made by a client is in errorAcrossBuilds.test.ts.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { builtPackage } from '../support/builtPackage.js';

type ErrorClass = abstract new (...args: never[]) => Error;
type Build = Record<string, unknown>;

/** The exported classes of a build's entries that derive from its `OzError`, by name. */
function errorClasses(entries: Build[]): Map<string, ErrorClass> {
  const root = entries[0]!.OzError as ErrorClass;
  const classes = new Map<string, ErrorClass>();
  for (const entry of entries) {
    for (const [name, value] of Object.entries(entry)) {
      if (typeof value === 'function' && (value === root || Object.prototype.isPrototypeOf.call(root.prototype, value.prototype)))
        classes.set(name, value as ErrorClass);
    }
  }
  return classes;
}

describe('every OzError class across the ESM and CommonJS builds', () => {
  it('instanceof holds both ways along the class hierarchy, and nowhere else', { timeout: 120_000 }, async () => {
    const dist = `${await builtPackage()}/dist`;
    const require = createRequire(import.meta.url);
    const esm = errorClasses([await import(pathToFileURL(`${dist}/index.js`).href), await import(pathToFileURL(`${dist}/mcp/index.js`).href)]);
    const cjs = errorClasses([require(`${dist}/index.cjs`) as Build, require(`${dist}/mcp/index.cjs`) as Build]);
    expect([...cjs.keys()].sort()).toEqual([...esm.keys()].sort());
    // A class of the other build is told by its name: every class keeps the name it is exported as.
    const renamed = [...esm, ...cjs].filter(([name, cls]) => cls.name !== name).map(([name, cls]) => `${name} is named ${cls.name}`);
    expect(renamed).toEqual([]);
    // The SDK's own, the status and the MCP classes, and every generated code class (at least one per code).
    for (const name of [
      'OzUsageError',
      'OzTimeoutError',
      'OzStreamIdleTimeoutError',
      'OzWaitTimeoutError',
      'Http404Error',
      'ToolNotFoundError',
      'RateLimitedError',
      'McpToolFencedError',
    ]) {
      expect(esm.has(name), name).toBe(true);
    }
    const wrong: string[] = [];
    for (const [maker, checker] of [
      [cjs, esm],
      [esm, cjs],
    ] as const) {
      for (const [name, Made] of maker) {
        const instance: unknown = Object.create(Made.prototype);
        for (const [other, Checked] of checker) {
          // The hierarchy as the checking build itself has it: the class or one of its ancestors.
          const expected = other === name || Object.prototype.isPrototypeOf.call(Checked.prototype, checker.get(name)!.prototype);
          if (instance instanceof Checked !== expected) wrong.push(`${name} instanceof ${other} (other build) is ${!expected}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(esm.size).toBeGreaterThan(40);
  });
});
