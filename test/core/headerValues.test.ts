import { describe, expect, it } from 'vitest';
import { Oz, OzUsageError } from '../../src/index.js';
import { KEY, rejectionOf } from './support/clients.js';
import { ScriptedServer } from './support/scriptedServer.js';

const server = ScriptedServer.forSuite(() => ({ body: { ok: true, content: 'x', execution_id: 'exe_1', request_id: 'req_1' } }));
const client = (options: ConstructorParameters<typeof Oz>[0] = {}) => new Oz({ baseURL: server.url, apiKey: KEY, logLevel: 'off', maxRetries: 0, ...options });

const BAD = [
  ['a CR LF (header injection)', 'abc\r\nx-injected: 1', /line break \(CR or LF\)/],
  ['a lone LF', 'abc\ndef', /line break/],
  ['a NUL', 'abc\0', /NUL character/],
  ['a character outside Latin-1', 'caf€', /outside Latin-1 \(U\+20AC\)/],
] as const;

describe('invalid header values are the usage error naming the header, nothing sent', () => {
  it.each(BAD)('idempotencyKey with %s', async (_, value, reason) => {
    const error = await rejectionOf(client().tools.execute('echo', { text: 'hi' }, { idempotencyKey: value }));
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toMatch(/"x-trace-id" \(from idempotencyKey\)/);
    expect((error as Error).message).toMatch(reason);
    expect(server.requests).toEqual([]);
  });

  it.each(BAD)('defaultHeaders with %s', async (_, value, reason) => {
    const error = await rejectionOf(client({ defaultHeaders: { 'x-team': value } }).tools.get('echo'));
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toMatch(/"x-team" \(from defaultHeaders\)/);
    expect((error as Error).message).toMatch(reason);
    expect(server.requests).toEqual([]);
  });

  it.each(BAD)('per-call headers with %s', async (_, value, reason) => {
    const error = await rejectionOf(client().tools.get('echo', { headers: { 'x-team': value } }));
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toMatch(/"x-team" \(from headers\)/);
    expect((error as Error).message).toMatch(reason);
    expect(server.requests).toEqual([]);
  });

  it('an invalid header name (also one given to remove with null)', async () => {
    for (const headers of [{ 'x bad': 'v' }, { 'x:bad': null }] as Record<string, string | null>[]) {
      const error = await rejectionOf(client().tools.get('echo', { headers }));
      expect(error).toBeInstanceOf(OzUsageError);
      expect((error as Error).message).toMatch(/is not a valid HTTP header name/);
    }
    expect(server.requests).toEqual([]);
  });

  it('an API key with a line break names apiKey and never prints the key', async () => {
    const secret = 'ozk_Secret0123456789abcdef\r\nx: y';
    for (const authHeader of ['bearer', 'x-api-key'] as const) {
      const error = await rejectionOf(client({ apiKey: secret, authHeader }).tools.get('echo'));
      expect(error).toBeInstanceOf(OzUsageError);
      expect((error as Error).message).toMatch(/\(from apiKey\)/);
      expect((error as Error).message).not.toContain('Secret');
    }
    expect(server.requests).toEqual([]);
  });

  it('valid values (Latin-1 included) go out as given', async () => {
    await client({ defaultHeaders: { 'x-team': 'café' } }).tools.get('echo', { headers: { 'x-call': 'a b' }, idempotencyKey: 'k-1' });
    expect(server.requests[0]!.headers).toMatchObject({ 'x-call': 'a b', 'x-trace-id': 'k-1' });
    expect(Buffer.from(server.requests[0]!.headers['x-team'] as string, 'latin1').toString('latin1')).toBe('café');
  });
});
