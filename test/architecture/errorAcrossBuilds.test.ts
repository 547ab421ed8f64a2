/**
 * The built package's two builds in one process: an error thrown by a client of the CommonJS build is an
 * instance of the ES module build's classes, and the other way round, for a status class and a code class.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createOzServer } from '../../src/testing/index.js';
import { builtPackage } from '../support/builtPackage.js';

type Sdk = typeof import('../../src/index.js');

describe('errors across the ESM and CommonJS builds', () => {
  it('instanceof holds both ways, name, code and status unchanged', { timeout: 120_000 }, async () => {
    const dist = `${await builtPackage()}/dist`;
    const esm = (await import(pathToFileURL(`${dist}/index.js`).href)) as Sdk;
    const cjs = createRequire(import.meta.url)(`${dist}/index.cjs`) as Sdk;
    expect(esm.OzError).not.toBe(cjs.OzError); // two copies of every class: the dual-package hazard
    const server = createOzServer();
    try {
      for (const [maker, other] of [
        [cjs, esm],
        [esm, cjs],
      ] as const) {
        const oz = new maker.Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, maxRetries: 0, logLevel: 'off' });
        const err = await oz.tools.execute('no-such-tool', { text: 'x' }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(other.ToolNotFoundError); // a code class
        expect(err).toBeInstanceOf(other.Http404Error); // its status class
        expect(err).toBeInstanceOf(other.OzAPIError);
        expect(err).toBeInstanceOf(other.OzError);
        expect(err instanceof other.RateLimitedError).toBe(false);
        expect(err).toMatchObject({ name: 'ToolNotFoundError', code: 'tool_not_found', status: 404 });
      }
      expect(new Error('x') instanceof esm.OzError || new Error('x') instanceof cjs.OzError).toBe(false);
    } finally {
      await server.close();
    }
  });
});
