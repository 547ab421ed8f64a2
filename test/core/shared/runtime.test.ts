import { afterEach, describe, expect, it } from 'vitest';
import { nodeUserAgent } from '../../../src/core/shared/runtime.js';

describe('nodeUserAgent', () => {
  const g = globalThis as Record<string, unknown>;
  afterEach(() => {
    delete g.window;
    delete g.document;
  });

  it('names the SDK, the API and the Node version, the same string on every call', () => {
    const first = nodeUserAgent();
    expect(first).toBe(`oz-sdk/1.0.0 (API 2.4.0; node/${process.versions.node})`);
    expect(nodeUserAgent()).toBe(first);
  });

  it('is undefined once a page (a window with a document) appears after the first call, and back after it goes', () => {
    expect(nodeUserAgent()).toBeDefined();
    g.document = {};
    g.window = { document: g.document };
    expect(nodeUserAgent()).toBeUndefined();
    delete g.window;
    expect(nodeUserAgent()).toMatch(/^oz-sdk\//);
  });
});
