/**
 * `instanceof` across the package's two builds: a class of the other build (same name, carrying oz-sdk's mark) is
 * recognised with the class hierarchy kept. Here the other build is simulated by defining the classes again; the
 * built ESM and CommonJS files are checked in test/architecture/errorAcrossBuilds.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { Http404Error, OzAPIError, OzError, OzUsageError, RateLimitedError, ToolNotFoundError } from '../../../src/index.js';

/** Classes as the other build would define them: the same names, extending that build's own OzError. */
function otherBuild() {
  const mark = Symbol.for('oz-sdk.error-class');
  class OzError extends Error {
    static readonly [mark] = true;
  }
  class OzAPIError extends OzError {}
  class Http404Error extends OzAPIError {}
  class ToolNotFoundError extends Http404Error {}
  return { OzError, OzAPIError, ToolNotFoundError };
}

describe('OzError brand', () => {
  it('an error of the other build is an instance of this build classes along its own chain only', () => {
    const other = otherBuild();
    const err = new other.ToolNotFoundError('No tool.');
    expect(err).toBeInstanceOf(OzError);
    expect(err).toBeInstanceOf(OzAPIError);
    expect(err).toBeInstanceOf(ToolNotFoundError);
    expect(err instanceof RateLimitedError).toBe(false);
    expect(err instanceof OzUsageError).toBe(false);
  });

  it('a plain error, a look-alike without the mark and non-objects are not', () => {
    class ToolNotFoundErrorLookAlike extends Error {}
    Object.defineProperty(ToolNotFoundErrorLookAlike, 'name', { value: 'ToolNotFoundError' });
    expect(new Error('x') instanceof OzError).toBe(false);
    expect(new ToolNotFoundErrorLookAlike('x') instanceof ToolNotFoundError).toBe(false);
    expect((null as unknown) instanceof OzError).toBe(false);
    expect(('OzError' as unknown) instanceof OzError).toBe(false);
  });

  it('within one build, two classes a minifier left with one name are told apart', () => {
    // A minifier may inline a class used once into a table, where it is named after its key (as Turbopack does with
    // the code classes of the generated table): two such classes share the name `class`.
    const first = { class: class extends Http404Error {} };
    const second = { class: class extends Http404Error {} };
    expect(first.class.name).toBe(second.class.name);
    const err = new first.class(404, new Headers(), undefined);
    expect(err).toBeInstanceOf(first.class);
    expect(err).toBeInstanceOf(Http404Error);
    expect(err instanceof second.class).toBe(false);
  });

  it('within one build, instanceof is as before', () => {
    const usage = new OzUsageError('bad');
    expect(usage).toBeInstanceOf(OzError);
    expect(usage instanceof OzAPIError).toBe(false);
    expect(usage.name).toBe('OzUsageError');
    expect(usage.code).toBe('usage_error');
  });
});
