/**
 * `resolveServerOptions`: the options of `createOzServer` with their defaults filled in, and a typed error, naming the
 * option, for each value the server cannot run with (thrown before any part of the server is made).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_SESSIONS } from '../../../src/testing/public/maxSessions.js';
import { resolveServerOptions } from '../../../src/testing/public/options.js';

describe('resolveServerOptions', () => {
  it('fills the defaults: the demo seed, the in-process origins, the documented timings and bounds', () => {
    const resolved = resolveServerOptions({});
    expect(resolved.seed).toBe('demo');
    expect(resolved.url).toBe('http://api.oz.test');
    expect(resolved.mcpUrl).toBe('http://mcp.oz.test/v1');
    expect(resolved.mcpOrigin).toBe('http://mcp.oz.test/');
    expect(resolved.timing).toEqual({ stepMs: 10, tokenMs: 2, pingMs: 15_000, pollMs: 0 });
    expect(resolved.rateLimit).toEqual({ limit: 100_000, window_ms: 60_000 });
    expect(resolved.maxSessions).toBe(DEFAULT_MAX_SESSIONS);
  });

  it("keeps what is given, the rate limit's window renamed as the store reads it, the URLs without a trailing slash", () => {
    const resolved = resolveServerOptions({
      seed: 'empty',
      url: 'http://127.0.0.1:4010/',
      mcpUrl: 'http://127.0.0.1:4011/v1//',
      rateLimit: { limit: 5, windowMs: 1000 },
      timing: { stepMs: 0 },
      maxSessions: 0,
    });
    expect(resolved.seed).toBe('empty');
    expect(resolved.url).toBe('http://127.0.0.1:4010');
    expect(resolved.mcpUrl).toBe('http://127.0.0.1:4011/v1');
    expect(resolved.rateLimit).toEqual({ limit: 5, window_ms: 1000 });
    expect(resolved.timing.stepMs).toBe(0);
    expect(resolved.timing.tokenMs).toBe(2);
    expect(resolved.maxSessions).toBe(0);
  });

  it('a function seed is the demo seed (the function runs on it)', () => {
    expect(resolveServerOptions({ seed: () => undefined }).seed).toBe('demo');
  });

  it('refuses an API and an MCP URL on one origin, and an API URL with a path', () => {
    expect(() => resolveServerOptions({ url: 'http://127.0.0.1:4010', mcpUrl: 'http://127.0.0.1:4010/mcp' })).toThrow(/url and mcpUrl need different origins/);
    expect(() => resolveServerOptions({ url: 'http://127.0.0.1:4010/v1' })).toThrow(/url must be an origin \(no path\)/);
  });

  it.each([
    [{ journalLimit: -1 }, /journalLimit must be a whole number >= 0 or Infinity, got -1/],
    [{ journalLimit: 1.5 }, /journalLimit must be a whole number >= 0 or Infinity, got 1.5/],
    [{ maxSessions: -1 }, /maxSessions must be a whole number >= 0, got -1/],
    [{ maxConnectionsPerAddress: 0 }, /maxConnectionsPerAddress must be a whole number >= 1, got 0/],
  ])('refuses %o with a RangeError naming the option', (options, message) => {
    expect(() => resolveServerOptions(options)).toThrow(RangeError);
    expect(() => resolveServerOptions(options)).toThrow(message);
  });

  it('takes an unbounded journal', () => {
    expect(resolveServerOptions({ journalLimit: Infinity }).journalLimit).toBe(Infinity);
  });
});
