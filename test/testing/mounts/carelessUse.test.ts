/**
 * Careless use of the embedded server's ways in and the client (issue 22, point 10): each mistake is a typed error
 * that says what went wrong, at once. (A fault with a code outside the contract: harness/faultCodes.test.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Oz, OzUsageError, signIn, SignInError } from '../../../src/index.js';
import { createOzServer, OzServerClosedError, type OzServer } from '../../../src/testing/index.js';

let server: OzServer;
afterEach(() => server?.close());

describe('a closed server answers no more requests', () => {
  it('server.fetch, server.handle and server.listen() reject with OzServerClosedError once close() was awaited', async () => {
    server = createOzServer();
    expect((await server.fetch(`${server.url}/health`)).status).toBe(200);
    await server.close();
    const fetched = await server.fetch(`${server.url}/health`).catch((e: unknown) => e);
    expect(fetched).toBeInstanceOf(OzServerClosedError);
    expect(fetched).toMatchObject({ name: 'OzServerClosedError', message: expect.stringMatching(/is closed .*server\.fetch answers no more requests/) });
    await expect(server.handle(new Request(`${server.url}/health`))).rejects.toThrow(/server\.handle answers no more requests/);
    await expect(server.listen()).rejects.toBeInstanceOf(OzServerClosedError);
    // a client given the closed server's fetch: a connection error whose cause says why (not the in-process hint)
    const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, maxRetries: 0 });
    const error = await oz.tools.list().catch((e: unknown) => e);
    expect((error as Error).name).toBe('OzConnectionError');
    expect((error as Error).cause).toBeInstanceOf(OzServerClosedError);
  });
});

describe('a client that forgot fetch: server.fetch', () => {
  it('a connection error to the in-process address is an OzUsageError naming server.fetch and msw, after one attempt', async () => {
    server = createOzServer();
    let attempts = 0;
    const network: typeof fetch = (input, init) => {
      attempts++;
      return globalThis.fetch(input, init);
    };
    const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, mcpURL: server.mcpUrl, fetch: network, maxRetries: 3 });
    const error = await oz.tools.execute('echo', { text: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toMatch(/^http:\/\/api\.oz\.test is the embedded Oz server's in-process address/);
    expect((error as Error).message).toContain('fetch: server.fetch');
    expect((error as Error).message).toContain('server.handlers()');
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect(attempts).toBe(1);
    const mcp = await oz.mcp.whoami().catch((e: unknown) => e);
    expect(mcp).toBeInstanceOf(OzUsageError);
    expect((mcp as Error).message).toMatch(/^http:\/\/mcp\.oz\.test is the embedded Oz server's in-process address/);
    expect(attempts).toBe(2);
  });

  it('another address keeps its retried OzConnectionError', async () => {
    let attempts = 0;
    const refused: typeof fetch = () => {
      attempts++;
      return Promise.reject(new TypeError('fetch failed'));
    };
    const oz = new Oz({ baseURL: 'http://127.0.0.1:9', apiKey: 'ozk_abcdefghijklmnopqrstuvwxyz012345', fetch: refused, maxRetries: 1 });
    const error = await oz.tools.list().catch((e: unknown) => e);
    expect((error as Error).name).toBe('OzConnectionError');
    expect(attempts).toBe(2);
  });

  it('signIn against the in-process dashboard without its fetch: exchange_failed naming server.fetch', async () => {
    server = createOzServer();
    server.dashboard.signInAs('demo');
    const outcome = signIn({
      dashboardURL: server.dashboardUrl,
      onAuthorizeURL: async (url) => {
        // the browser reaches the dashboard (in process) and follows its redirect to the SDK's listener
        const redirect = await server.fetch(url, { redirect: 'manual' });
        await fetch(redirect.headers.get('location')!);
      },
    });
    const error = await outcome.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignInError);
    expect(error).toMatchObject({ reason: 'exchange_failed', message: expect.stringContaining('fetch: server.fetch') });
  });
});
