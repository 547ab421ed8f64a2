/**
 * What a test under a DOM-like environment (jsdom, happy-dom: a `window` with a `document` in Node) sees: a client
 * over the embedded server (its `fetch`, or its msw mount) makes its calls without `dangerouslyAllowBrowser`, and a
 * client to any other address is still refused as a browser. Run by one test file per environment beside it.
 */
import * as msw from 'msw';
import { setupServer } from 'msw/node';
import { expect, it } from 'vitest';
import { Oz, OzUsageError } from '../../../src/index.js';
import { createOzServer } from '../../../src/testing/index.js';

export function embeddedServerCases(): void {
  it('runs in a window with a document', () => {
    expect(typeof window).toBe('object');
    expect(typeof document).toBe('object');
  });

  it('calls the embedded server through its fetch without dangerouslyAllowBrowser', async () => {
    const server = createOzServer();
    try {
      const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off' });
      expect((await oz.tools.execute('echo', { text: 'in a DOM' })).content).toBe('in a DOM');
    } finally {
      await server.close();
    }
  });

  it('calls the embedded server through its msw mount without dangerouslyAllowBrowser', async () => {
    const server = createOzServer();
    const interceptor = setupServer(...server.handlers({ msw }));
    interceptor.listen({ onUnhandledRequest: 'error' });
    try {
      const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, logLevel: 'off' });
      expect((await oz.tools.execute('echo', { text: 'through msw' })).content).toBe('through msw');
      expect(server.journal.last('executeTool')).toMatchObject({ mount: 'msw' });
    } finally {
      interceptor.close();
      await server.close();
    }
  });

  it("takes a test's own fetch over the server's to its in-process address; still refuses any other address as a browser", () => {
    const refused = /refuses to run in a browser/;
    expect(() => new Oz({ baseURL: 'https://oz.example.com', apiKey: 'ozk_x' })).toThrow(OzUsageError);
    expect(() => new Oz({ baseURL: 'https://oz.example.com', apiKey: 'ozk_x' })).toThrow(refused);
    const server = createOzServer();
    const wrapped: typeof fetch = (input, init) => server.fetch(input, init);
    expect(() => new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: wrapped })).not.toThrow();
    expect(() => new Oz({ baseURL: 'https://oz.example.com', apiKey: 'ozk_x', fetch: wrapped })).toThrow(refused);
    expect(() => new Oz({ baseURL: 'https://oz.example.com', apiKey: 'ozk_x', dangerouslyAllowBrowser: true })).not.toThrow();
    void server.close();
  });
}
