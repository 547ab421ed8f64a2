/**
 * A client's options given per call (src/core/options/clientOnlyOptions.ts): deprecated, still applied, warned of
 * once per client and option, never for a client made with `withOptions()` nor for the options a call keeps.
 */
import { describe, expect, it } from 'vitest';
import { CLIENT_ONLY_OPTIONS } from '../../../src/core/options/clientOnlyOptions.js';
import { envelope, fastClient, KEY, recordingLogger } from '../support/clients.js';
import { ScriptedServer } from '../support/scriptedServer.js';

const server = ScriptedServer.forSuite(() => ({ body: envelope('ok') }));

const warningsOf = (logger: ReturnType<typeof recordingLogger>) => logger.lines.filter((line) => line.level === 'warn').map((line) => line.message);

describe("a client's option given per call", () => {
  it('is each of apiKey, baseURL, authHeader, fetch, logLevel and logger', () => {
    expect([...CLIENT_ONLY_OPTIONS].sort()).toEqual(['apiKey', 'authHeader', 'baseURL', 'fetch', 'logLevel', 'logger']);
  });

  it('is applied, and warned of once per client and option, naming withOptions()', async () => {
    const logger = recordingLogger();
    const client = fastClient(server, { logger, logLevel: 'warn' });
    const other = 'ozk_OtherKey0123456789abcdefghijklmno';
    let fetched = 0;
    const fetch = (input: Request | string | URL, init?: RequestInit) => {
      fetched++;
      return globalThis.fetch(input, init);
    };
    for (let i = 0; i < 2; i++) {
      await client.tools.execute('echo', { text: 'x' }, { apiKey: other, authHeader: 'x-api-key', baseURL: server.url, fetch, logLevel: 'warn' });
    }
    expect(fetched).toBe(2);
    expect(server.requests.map((r) => r.headers['x-api-key'])).toEqual([other, other]);
    expect(warningsOf(logger)).toEqual(
      ['apiKey', 'baseURL', 'authHeader', 'fetch', 'logLevel'].map(
        (name) =>
          `options.${name} on a call is deprecated: it belongs to a client. Make one with oz.withOptions({ ${name} }) and call through it (this call still used it).`,
      ),
    );
    // Another client warns again: once per client.
    const again = recordingLogger();
    await fastClient(server, { logger: again, logLevel: 'warn' }).tools.execute('echo', { text: 'x' }, { apiKey: KEY });
    expect(warningsOf(again)).toEqual([expect.stringMatching(/^options\.apiKey on a call is deprecated/)]);
  });

  it("is warned of on the call's own logger when the call gives one", async () => {
    const logger = recordingLogger();
    const own = recordingLogger();
    await fastClient(server, { logger, logLevel: 'warn' }).tools.execute('echo', { text: 'x' }, { logger: own });
    expect(warningsOf(logger)).toEqual([]);
    expect(warningsOf(own)).toEqual([expect.stringMatching(/^options\.logger on a call is deprecated/)]);
  });

  it('is not warned of for the options a call keeps', async () => {
    const logger = recordingLogger();
    const client = fastClient(server, { logger, logLevel: 'warn' });
    await client.tools.execute(
      'echo',
      { text: 'x' },
      { timeout: 5_000, maxRetries: 1, headers: { 'x-team': 'a' }, validate: 'off', fetchOptions: { keepalive: false }, retry: { initialDelayMs: 1 } },
    );
    expect(warningsOf(logger)).toEqual([]);
  });
});
