import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Oz, OzAbortError, OzAPIError, OzConnectionError, OzTimeoutError, OzUsageError } from '../../../src/index.js';
import { Transport } from '../../../src/core/transport.js';
import { envelope, recordingLogger, rejectionOf, TRANSPORT_PARTS } from '../support/clients.js';
import { ScriptedServer, type ScriptedAnswer } from '../support/scriptedServer.js';

const SECRET = 'ozk_LeakCanary9876543210ZYXWVUTSRQPO';
const PER_CALL = 'ozk_PerCallCanary0123456789abcdefgh';
const LEGACY = 'sk-mdl-LegacyCanary0123456789';

let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(() => server.close());

/** Every way a value can be turned into text. */
function renderings(value: unknown): string[] {
  const out = [inspect(value, { depth: Infinity, showHidden: true, getters: true }), String(value)];
  try {
    out.push(JSON.stringify(value) ?? '');
  } catch {
    // circular values cannot be JSON; inspect covers them
  }
  if (value instanceof Error) out.push(value.message, value.stack ?? '', inspect(value.cause, { depth: Infinity, showHidden: true }));
  return out;
}

describe('the key never leaks', () => {
  it('into a log line at any level, an error, or an inspected or serialized object', async () => {
    const logger = recordingLogger();
    const client = new Oz({ baseURL: server.url, apiKey: SECRET, logger, logLevel: 'debug', maxRetries: 1 });
    const xApiKey = client.withOptions({ authHeader: 'x-api-key' });
    const errors: unknown[] = [];

    // A service that echoes the credential it got into its error messages and bodies, on every wire.
    server.fallback = (request): ScriptedAnswer => {
      const seen = `${String(request.headers.authorization ?? '')} ${String(request.headers['x-api-key'] ?? '')}`;
      if (request.path.endsWith('/ok')) return { headers: { 'x-request-id': 'req_ok' }, body: envelope('fine') };
      if (request.query.get('format') === 'text')
        return { status: 401, headers: { 'content-type': 'text/plain', 'x-error-code': 'unauthorized' }, body: `unauthorized: bad key ${seen}\n` };
      return { status: 401, headers: { 'x-error-code': 'unauthorized' }, body: { error: { code: 'unauthorized', message: `bad key ${seen}`, hint: seen } } };
    };
    await client.tools.get('ok');
    await xApiKey.tools.get('ok');
    errors.push(await rejectionOf(client.tools.get('echo')));
    errors.push(await rejectionOf(client.tools.get('echo', { format: 'text' })));
    errors.push(await rejectionOf(xApiKey.tools.get('echo')));
    errors.push(await rejectionOf(client.tools.get('echo', { apiKey: PER_CALL })));
    errors.push(await rejectionOf(new Oz({ baseURL: server.url, apiKey: LEGACY, logger, logLevel: 'debug' }).tools.get('echo')));

    // Retries, then an error status; a reset connection; a timeout; an abort; a usage error.
    server.answer(
      { status: 500, headers: { 'x-error-code': 'internal_error', 'retry-after': '0' } },
      { status: 500, headers: { 'x-error-code': 'internal_error', 'retry-after': '0' } },
    );
    errors.push(await rejectionOf(client.tools.get('echo')));
    server.answer({ destroy: true });
    errors.push(await rejectionOf(client.withOptions({ maxRetries: 0 }).tools.get('echo')));
    server.answer({ delayMs: 500 });
    errors.push(await rejectionOf(client.tools.get('echo', { timeout: 30, maxRetries: 0 })));
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    errors.push(await rejectionOf(client.tools.get('echo', { signal: controller.signal })));
    errors.push(await rejectionOf(client.chat.completions.create({ model: 'm', messages: [] }, { bodyFormat: 'yaml' })));
    const closed = await ScriptedServer.start();
    await closed.close();
    errors.push(await rejectionOf(client.tools.get('echo', { baseURL: closed.url, maxRetries: 0 })));

    // The errors are of the kinds we meant to provoke.
    expect(errors.filter((e) => e instanceof OzAPIError)).toHaveLength(6);
    expect(errors.some((e) => e instanceof OzTimeoutError)).toBe(true);
    expect(errors.some((e) => e instanceof OzConnectionError && !(e instanceof OzTimeoutError))).toBe(true);
    expect(errors.some((e) => e instanceof OzAbortError)).toBe(true);
    expect(errors.some((e) => e instanceof OzUsageError)).toBe(true);
    expect(logger.lines.some((l) => l.level === 'debug')).toBe(true);
    expect(logger.lines.some((l) => l.level === 'info')).toBe(true);

    const texts = [
      ...logger.lines.flatMap((l) => [l.message, ...l.rest.map((r) => inspect(r, { depth: Infinity }))]),
      ...errors.flatMap(renderings),
      ...renderings(client),
      ...renderings(xApiKey),
      ...renderings(client.tools),
      ...renderings(new Transport({ baseURL: server.url, apiKey: SECRET, ...TRANSPORT_PARTS })),
      ...renderings(client.tools.get('ok')),
    ];
    for (const text of texts) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(PER_CALL);
      expect(text).not.toContain(LEGACY);
      expect(text).not.toContain('LeakCanary');
    }
    // The service did see the keys: the test would catch an echo.
    expect(server.requests.some((r) => r.headers.authorization === `Bearer ${SECRET}`)).toBe(true);
    expect(server.requests.some((r) => r.headers['x-api-key'] === SECRET)).toBe(true);
    expect(server.requests.some((r) => r.headers.authorization === `Bearer ${PER_CALL}`)).toBe(true);
  });

  it('inspect and JSON of the client show its settings with the key masked', () => {
    const client = new Oz({ baseURL: server.url, apiKey: SECRET, logLevel: 'off' });
    expect(JSON.parse(JSON.stringify(client))).toEqual({
      baseURL: server.url,
      apiKey: '[redacted]',
      maxRetries: 2,
      timeout: 600000,
      authHeader: 'bearer',
      logLevel: 'off',
    });
    expect(inspect(client)).toMatch(/^Oz \{.*"apiKey":"\[redacted\]"/);
  });
});
