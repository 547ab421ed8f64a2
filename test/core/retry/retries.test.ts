import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  ApprovalRequiredError,
  Http400Error,
  CompanyNotFoundError,
  ConnectionRequiredError,
  DuplicateExecutionIdError,
  InternalError,
  InvalidParamsError,
  Oz,
  OzAbortError,
  OzConnectionError,
  OzTimeoutError,
  RateLimitedError,
  UnauthorizedError,
  UpstreamError,
} from '../../../src/index.js';
import { envelope, expectAbortedMidCall, fastClient, KEY, recordingLogger, rejectionOf } from '../support/clients.js';
import { ScriptedServer } from '../support/scriptedServer.js';

const server = ScriptedServer.forSuite();

const errorAnswer = (status: number, code: string, headers: Record<string, string> = {}) => ({
  status,
  headers: { 'x-error-code': code, ...headers },
  body: { error: { code, message: `${code} happened` } },
});
const ok = { status: 200, headers: { 'x-execution-id': 'exe_1' }, body: envelope('done') };
const body = { params: { text: 'héllo ✓', n: 1, nested: { list: [1, 2, 3] } } };

describe('retries', () => {
  it.each([
    [408, 'request_timeout'],
    [500, 'internal_error'],
    [502, 'upstream_error'],
    [503, 'not_enabled'],
    [504, 'timeout'],
  ])('retries a %i twice, then succeeds, re-sending the same body and x-trace-id', async (status, code) => {
    server.answer(errorAnswer(status, code), errorAnswer(status, code), ok);
    const result = await fastClient(server).tools.execute('echo', body);
    expect(result).toEqual(envelope('done'));
    expect(server.requests).toHaveLength(3);
    const [first, ...rest] = server.requests;
    for (const request of rest) {
      expect(request.body).toBe(first!.body);
      expect(request.headers['x-trace-id']).toBe(first!.headers['x-trace-id']);
      expect(request.headers['content-type']).toBe('application/json');
    }
    expect(JSON.parse(first!.body)).toEqual(body);
    expect(first!.headers['x-trace-id']).toMatch(/^exe_[A-Za-z0-9]{32}$/);
  });

  it.each([
    [500, 'internal_error', InternalError],
    [502, 'upstream_error', UpstreamError],
    [429, 'rate_limited', RateLimitedError],
  ])('gives up after maxRetries on %i and throws its typed error', async (status, code, Class) => {
    server.answer(
      errorAnswer(status, code, { 'retry-after': '0' }),
      errorAnswer(status, code, { 'retry-after': '0' }),
      errorAnswer(status, code, { 'retry-after': '0' }),
    );
    const error = await rejectionOf(fastClient(server).tools.execute('echo', body));
    expect(error).toBeInstanceOf(Class);
    expect(server.requests).toHaveLength(3);
  });

  it('honours maxRetries per call and per client', async () => {
    server.answer(errorAnswer(500, 'internal_error'), errorAnswer(500, 'internal_error'));
    await expect(fastClient(server, { maxRetries: 5 }).tools.get('echo', { maxRetries: 1 })).rejects.toBeInstanceOf(InternalError);
    expect(server.requests).toHaveLength(2);
    server.reset();
    server.answer(errorAnswer(500, 'internal_error'));
    await expect(fastClient(server, { maxRetries: 0 }).tools.get('echo')).rejects.toBeInstanceOf(InternalError);
    expect(server.requests).toHaveLength(1);
  });

  it('waits Retry-After: 1 (seconds) on a 429 before the retry', async () => {
    server.answer(errorAnswer(429, 'rate_limited', { 'retry-after': '1' }), ok);
    const client = new Oz({ baseURL: server.url, apiKey: KEY, logLevel: 'off' });
    await expect(client.tools.execute('echo', body)).resolves.toEqual(envelope('done'));
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it('does not wait out a Retry-After above the 60 s cap: the call fails at once', async () => {
    server.answer(errorAnswer(429, 'rate_limited', { 'retry-after': '3600' }));
    const logger = recordingLogger();
    const error = await rejectionOf(fastClient(server, { logger, logLevel: 'warn' }).tools.execute('echo', body));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).headers.get('retry-after')).toBe('3600');
    expect(server.requests).toHaveLength(1);
    expect(logger.lines.some((line) => line.level === 'warn' && /Retry-After/.test(line.message))).toBe(true);
  });

  it('retries a reset connection', async () => {
    server.answer({ destroy: true }, { destroy: true }, ok);
    await expect(fastClient(server).tools.execute('echo', body)).resolves.toEqual(envelope('done'));
    expect(server.requests).toHaveLength(3);
    expect(new Set(server.requests.map((r) => r.headers['x-trace-id'])).size).toBe(1);
  });

  it('throws OzConnectionError when every attempt is reset', async () => {
    server.answer({ destroy: true }, { destroy: true }, { destroy: true });
    const error = await rejectionOf(fastClient(server).tools.execute('echo', body));
    expect(error).toBeInstanceOf(OzConnectionError);
    expect(error).not.toBeInstanceOf(OzTimeoutError);
    expect(server.requests).toHaveLength(3);
  });

  it('throws OzConnectionError when nothing listens', async () => {
    const closed = await ScriptedServer.start();
    await closed.close();
    const client = fastClient(closed, { maxRetries: 1 });
    await expect(client.meta.health()).rejects.toBeInstanceOf(OzConnectionError);
  });

  it('times out each attempt after `timeout` ms and retries', async () => {
    server.answer({ delayMs: 2000, body: envelope('late') }, { delayMs: 2000, body: envelope('late') }, ok);
    const result = await fastClient(server).tools.execute('echo', body, { timeout: 100 });
    expect(result).toEqual(envelope('done'));
    expect(server.requests).toHaveLength(3);
  });

  it('throws OzTimeoutError when every attempt times out', async () => {
    for (let i = 0; i < 3; i++) server.answer({ delayMs: 2000, body: envelope('late') });
    const client = fastClient(server, { timeout: 80 });
    const error = await rejectionOf(client.tools.execute('echo', body));
    expect(error).toBeInstanceOf(OzTimeoutError);
    expect(error).toBeInstanceOf(OzConnectionError);
    expect((error as Error).message).toMatch(/timed out after 80 ms/);
    expect(server.requests).toHaveLength(3);
  });

  it("maps undici's own 300 s headersTimeout to a retried OzTimeoutError that says how to lift it", async () => {
    let calls = 0;
    const fetch = async () => {
      calls += 1;
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' }) });
    };
    const error = await rejectionOf(fastClient(server, { fetch }).tools.execute('echo', body));
    expect(error).toBeInstanceOf(OzTimeoutError);
    expect((error as Error).message).toMatch(/headersTimeout .*undici Agent/);
    expect(calls).toBe(3);
  });

  it.each([
    [400, 'invalid_json', Http400Error],
    [401, 'unauthorized', UnauthorizedError],
    [404, 'company_not_found', CompanyNotFoundError],
    [409, 'approval_required', ApprovalRequiredError],
    [409, 'duplicate_execution_id', DuplicateExecutionIdError],
    [422, 'invalid_params', InvalidParamsError],
    [424, 'connection_required', ConnectionRequiredError],
  ])('never retries a %i (%s)', async (status, code, Class) => {
    server.answer(errorAnswer(status, code, { 'retry-after': '0' }), ok);
    const error = await rejectionOf(fastClient(server).tools.execute('echo', body));
    expect(error).toBeInstanceOf(Class);
    expect(server.requests).toHaveLength(1);
  });

  it('aborts during a backoff wait at once, with OzAbortError, leaving no listener on the signal', async () => {
    server.answer(errorAnswer(503, 'not_enabled', { 'retry-after': '30' }), ok);
    const client = new Oz({ baseURL: server.url, apiKey: KEY, logLevel: 'off' });
    await expectAbortedMidCall(server, (signal) => client.tools.execute('echo', body, { signal }));
  }, 5000);

  it('aborts an attempt in flight', async () => {
    server.answer({ delayMs: 5000, body: envelope('late') });
    const controller = new AbortController();
    const call = fastClient(server).tools.execute('echo', body, { signal: controller.signal });
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(OzAbortError);
    expect(server.requests).toHaveLength(1);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  }, 4000);

  it('sends nothing when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(fastClient(server).tools.execute('echo', body, { signal: controller.signal })).rejects.toBeInstanceOf(OzAbortError);
    expect(server.requests).toHaveLength(0);
  });

  it('leaves no listener on the caller signal after calls that succeed, fail, retry or time out', async () => {
    const controller = new AbortController();
    const signal = controller.signal;
    const client = fastClient(server);
    server.answer(ok);
    await client.tools.execute('echo', body, { signal });
    server.answer(errorAnswer(422, 'invalid_params'));
    await rejectionOf(client.tools.execute('echo', body, { signal }));
    server.answer(errorAnswer(500, 'internal_error'), { destroy: true }, ok);
    await client.tools.execute('echo', body, { signal });
    server.answer({ delayMs: 1000 }, { delayMs: 1000 }, { delayMs: 1000 });
    await rejectionOf(client.tools.execute('echo', body, { signal, timeout: 30 }));
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});
