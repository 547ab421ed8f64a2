// The retry policy (`retry` beside `maxRetries`, on the client and on a call), `x-should-retry` and
// `x-oz-retry-count`: against the scripted server (exact answers) and the embedded server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApprovalRequiredError,
  InternalError,
  InvalidParamsError,
  Oz,
  OzAbortError,
  OzUsageError,
  RateLimitedError,
  type ClientOptions,
  type RetryInfo,
} from '../../../src/index.js';
import type { OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { envelope, KEY, recordingLogger, rejectionOf } from '../support/clients.js';
import { ScriptedServer } from '../support/scriptedServer.js';

const scripted = ScriptedServer.forSuite();
const client = (options: ClientOptions = {}) =>
  new Oz({ baseURL: scripted.url, apiKey: KEY, logLevel: 'off', ...options, retry: { initialDelayMs: 1, maxDelayMs: 5, ...options.retry } });
const failure = (status: number, code: string, headers: Record<string, string> = {}) => ({
  status,
  headers: { 'x-error-code': code, ...headers },
  body: { error: { code, message: code } },
});

describe('retry options against the scripted server', () => {
  it('x-should-retry: false stops the retry of a 500; x-should-retry: true retries a 422', async () => {
    scripted.answer(failure(500, 'internal_error', { 'x-should-retry': 'false' }), { body: envelope('never asked') });
    expect(await rejectionOf(client().tools.execute('echo', { text: 'x' }))).toBeInstanceOf(InternalError);
    expect(scripted.requests).toHaveLength(1);

    scripted.reset();
    scripted.answer(failure(422, 'invalid_params', { 'x-should-retry': 'true' }), { body: envelope('second') });
    expect((await client().tools.execute('echo', { text: 'x' })).content).toBe('second');
    expect(scripted.requests.map((r) => r.headers['x-oz-retry-count'])).toEqual(['0', '1']);
  });

  it.each([
    [409, 'approval_required', 'agents'],
    [409, 'duplicate_execution_id', 'tools'],
    [424, 'connection_required', 'tools'],
    [424, 'credential_required', 'tools'],
  ] as const)('a %i %s with x-should-retry: true is sent once (the header cannot force what the rules forbid)', async (status, code, api) => {
    scripted.answer(failure(status, code, { 'x-should-retry': 'true' }), { body: envelope('never asked') });
    const call = api === 'agents' ? client().agents.execute({ agent: 'approver', user_request: 'x' }) : client().tools.execute('echo', { text: 'x' });
    const error = await rejectionOf(call);
    expect(error).toMatchObject({ status, code });
    expect(scripted.requests).toHaveLength(1);
  });

  it('a 503 with x-should-retry: false is sent once; a 409 with x-should-retry: true is retried when shouldRetry says yes', async () => {
    scripted.answer(failure(503, 'upstream_error', { 'x-should-retry': 'false' }), { body: envelope('never asked') });
    expect(await rejectionOf(client().tools.execute('echo', { text: 'x' }))).toMatchObject({ status: 503 });
    expect(scripted.requests).toHaveLength(1);

    scripted.reset();
    const told: boolean[] = [];
    scripted.answer(failure(409, 'approval_required', { 'x-should-retry': 'true' }), { body: envelope('approved') });
    const oz = client({ retry: { shouldRetry: (error) => (told.push(error instanceof ApprovalRequiredError), true) } });
    expect((await oz.agents.execute({ agent: 'approver', user_request: 'x' })).content).toBe('approved');
    expect(told).toEqual([true]);
    expect(scripted.requests.map((r) => r.headers['x-oz-retry-count'])).toEqual(['0', '1']);
  });

  it('maxRetries stays the bound (2 by default): three attempts, x-oz-retry-count 0, 1, 2', async () => {
    scripted.fallback = () => failure(503, 'internal_error');
    expect(await rejectionOf(client().tools.get('echo'))).toBeInstanceOf(InternalError);
    expect(scripted.requests.map((r) => r.headers['x-oz-retry-count'])).toEqual(['0', '1', '2']);
  });

  it('shouldRetry(error, attempt) forces a retry of a 409, vetoes one of a 500, or keeps the default with undefined', async () => {
    const asked: [string, number][] = [];
    scripted.answer(failure(409, 'approval_required'), { body: envelope('approved') });
    const forcing = client({
      retry: { shouldRetry: (error, attempt) => (asked.push([error.name, attempt]), error instanceof ApprovalRequiredError || undefined) },
    });
    expect((await forcing.agents.execute({ agent: 'approver', user_request: 'x' })).content).toBe('approved');
    expect(asked).toEqual([['ApprovalRequiredError', 0]]);

    scripted.reset();
    scripted.answer(failure(500, 'internal_error'), { body: envelope('not reached') });
    const vetoing = client({ retry: { shouldRetry: () => false } });
    expect(await rejectionOf(vetoing.tools.execute('echo', { text: 'x' }))).toBeInstanceOf(InternalError);
    expect(scripted.requests).toHaveLength(1);

    scripted.reset();
    scripted.answer(failure(500, 'internal_error', { 'x-should-retry': 'false' }), { body: envelope('forced') });
    // shouldRetry is asked after the header: it may still force the retry the header forbade.
    expect((await client({ retry: { shouldRetry: () => true } }).tools.execute('echo', { text: 'x' })).content).toBe('forced');
  });

  it('onRetry is told each retry (attempt, delay, error, trace id); backoff follows initialDelayMs, maxDelayMs, jitter', async () => {
    scripted.fallback = () => failure(500, 'internal_error');
    const infos: RetryInfo[] = [];
    const oz = client({ maxRetries: 4, retry: { initialDelayMs: 4, maxDelayMs: 10, jitter: 0, onRetry: (info) => void infos.push(info) } });
    await rejectionOf(oz.tools.execute('echo', { text: 'x' }));
    expect(infos.map((i) => [i.attempt, i.delayMs])).toEqual([
      [0, 4],
      [1, 8],
      [2, 10],
      [3, 10],
    ]);
    expect(infos[0]).toMatchObject({ operationId: 'executeTool', traceId: scripted.requests[0]!.headers['x-trace-id'] });
    expect(infos[0]!.error).toBeInstanceOf(InternalError);
  });

  it('an onRetry that throws is logged and ignored', async () => {
    scripted.answer(failure(500, 'internal_error'), { body: envelope('fine') });
    const logger = recordingLogger();
    const oz = client({
      logger,
      logLevel: 'warn',
      retry: {
        onRetry: () => {
          throw new Error('observer bug');
        },
      },
    });
    expect((await oz.tools.execute('echo', { text: 'x' })).content).toBe('fine');
    expect(logger.lines.some((l) => l.level === 'warn' && l.message.includes('retry.onRetry threw (ignored): observer bug'))).toBe(true);
  });

  it("maxRetryAfterMs bounds the Retry-After waited; a call sets single fields over the client's", async () => {
    scripted.answer(failure(429, 'rate_limited', { 'retry-after': '2' }), { body: envelope('not reached') });
    const infos: RetryInfo[] = [];
    const oz = client({ retry: { maxRetryAfterMs: 1000, onRetry: (info) => void infos.push(info) } });
    expect(await rejectionOf(oz.tools.execute('echo', { text: 'x' }))).toBeInstanceOf(RateLimitedError);
    expect(scripted.requests).toHaveLength(1);

    scripted.reset();
    scripted.answer(failure(429, 'rate_limited', { 'retry-after-ms': '20' }), { body: envelope('waited') });
    // The call's maxRetryAfterMs over the client's; the client's onRetry still runs.
    expect((await oz.tools.execute('echo', { text: 'x' }, { retry: { maxRetryAfterMs: 50 } })).content).toBe('waited');
    expect(infos.map((i) => i.delayMs)).toEqual([20]);
  });

  it("withOptions({ retry }) sets single fields over the client's", async () => {
    scripted.fallback = () => failure(500, 'internal_error');
    const infos: RetryInfo[] = [];
    const oz = client({ maxRetries: 1, retry: { jitter: 0, initialDelayMs: 3, maxDelayMs: 100, onRetry: (info) => void infos.push(info) } }).withOptions({
      retry: { initialDelayMs: 7 },
    });
    await rejectionOf(oz.tools.get('echo'));
    expect(infos.map((i) => i.delayMs)).toEqual([7]);
  });

  it('bad retry options are OzUsageError naming the field, where they are given, before anything is sent', async () => {
    const given = (options: ClientOptions['retry']) => {
      try {
        new Oz({ baseURL: scripted.url, apiKey: KEY, retry: options });
      } catch (error) {
        return error;
      }
      throw new Error('expected the client to refuse its retry options');
    };
    expect(given({ initialDelayMs: -1 })).toEqual(new OzUsageError('retry.initialDelayMs must be a number of milliseconds >= 0, not -1.'));
    expect(given({ maxDelayMs: Number.NaN })).toEqual(new OzUsageError('retry.maxDelayMs must be a number of milliseconds >= 0 (or Infinity), not NaN.'));
    expect((given({ jitter: 2 }) as Error).message).toMatch(/^retry\.jitter must be a number from 0 to 1/);
    expect(given({ shouldRetry: true as never })).toEqual(
      new OzUsageError('retry.shouldRetry must be a function (error, attempt) => boolean | undefined, not boolean (true).'),
    );
    expect(given({ onRetry: 'log' as never })).toEqual(new OzUsageError('retry.onRetry must be a function (info) => void, not string ("log").'));
    const onCall = await rejectionOf(client().tools.execute('echo', { text: 'x' }, { retry: { maxRetryAfterMs: -5 } }));
    expect(onCall).toEqual(new OzUsageError('retry.maxRetryAfterMs must be a number of milliseconds >= 0 (or Infinity), not -5.'));
    expect(scripted.requests).toHaveLength(0);
  });

  it('a shouldRetry that throws or answers a non-boolean fails the call with OzUsageError', async () => {
    scripted.fallback = () => failure(500, 'internal_error');
    const thrown = await rejectionOf(
      client({
        retry: {
          shouldRetry: () => {
            throw new Error('bug');
          },
        },
      }).tools.get('echo'),
    );
    expect(thrown).toBeInstanceOf(OzUsageError);
    expect((thrown as Error).message).toBe('retry.shouldRetry threw: bug');
    const odd = await rejectionOf(client({ retry: { shouldRetry: (() => 'yes') as never } }).tools.get('echo'));
    expect((odd as Error).message).toBe('retry.shouldRetry must answer true, false or undefined, not string.');
    expect(scripted.requests).toHaveLength(2);
  });

  it('an abort is never retried nor given to shouldRetry', async () => {
    scripted.fallback = () => ({ delayMs: 1000, body: envelope('late') });
    let asked = 0;
    const controller = new AbortController();
    const pending = client({ retry: { shouldRetry: () => (asked++, true) } }).tools.get('echo', { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect(await rejectionOf(pending)).toBeInstanceOf(OzAbortError);
    expect(asked).toBe(0);
  });
});

describe('retry options against the embedded server', () => {
  let server: OzServer;
  beforeAll(() => {
    server = createTestServer();
  });
  afterAll(() => server.close());

  // The embedded server sends no x-should-retry; a gateway in front of it (this fetch) adds it to its 500s.
  const gateway = (value: string) => async (input: Request | string | URL, init?: RequestInit) => {
    const response = await server.fetch(input, init);
    if (response.status < 500) return response;
    const headers = new Headers(response.headers);
    headers.set('x-should-retry', value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
  const oz = (options: ClientOptions) =>
    new Oz({ baseURL: server.url, apiKey: server.apiKey, logLevel: 'off', retry: { initialDelayMs: 1, maxDelayMs: 5 }, ...options });

  it('x-should-retry: false stops the retry of a 500: the journal has one request', async () => {
    server.faults.add({ operationId: 'executeTool', type: 'error', status: 500, code: 'internal_error', retryAfter: 0, times: 1 });
    const before = server.journal.filter('executeTool').length;
    expect(await rejectionOf(oz({ fetch: gateway('false') }).tools.execute('echo', { text: 'x' }))).toBeInstanceOf(InternalError);
    expect(server.journal.filter('executeTool').length - before).toBe(1);
    // Without the header the same fault is retried.
    server.faults.add({ operationId: 'executeTool', type: 'error', status: 500, code: 'internal_error', retryAfter: 0, times: 1 });
    expect((await oz({ fetch: server.fetch }).tools.execute('echo', { text: 'y' })).content).toBe('y');
  });

  it('shouldRetry forces a retry of a 422, onRetry sees the attempts, and every attempt carries x-oz-retry-count', async () => {
    server.faults.add({ operationId: 'executeTool', type: 'error', status: 422, code: 'invalid_params', times: 1 });
    const attempts: number[] = [];
    const forced = oz({
      fetch: server.fetch,
      retry: { shouldRetry: (error) => error instanceof InvalidParamsError, onRetry: ({ attempt }) => void attempts.push(attempt) },
    });
    expect((await forced.tools.execute('echo', { text: 'forced' })).content).toBe('forced');
    expect(attempts).toEqual([0]);
    expect(
      server.journal
        .filter('executeTool')
        .slice(-2)
        .map((e) => e.headers['x-oz-retry-count']),
    ).toEqual(['0', '1']);
  });
});
