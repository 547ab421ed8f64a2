// What the retry step tells the client's logger (src/core/retry/retryAttempts.ts): each retry at `info` with its
// reason, its wait and the retries left; a Retry-After past the cap at `warn`; the 401 that asks the key function
// again. A user reading the log learns from these lines why a call took long.
import { describe, expect, it } from 'vitest';
import { Oz, RateLimitedError, type ClientOptions } from '../../../src/index.js';
import { envelope, KEY, recordingLogger, rejectionOf } from '../support/clients.js';
import { ScriptedServer } from '../support/scriptedServer.js';

const scripted = ScriptedServer.forSuite();
const failure = (status: number, code: string, headers: Record<string, string> = {}) => ({
  status,
  headers: { 'x-error-code': code, ...headers },
  body: { error: { code, message: code } },
});

function logged(options: ClientOptions = {}) {
  const logger = recordingLogger();
  const oz = new Oz({
    baseURL: scripted.url,
    apiKey: KEY,
    logger,
    logLevel: 'info',
    maxRetries: 2,
    retry: { initialDelayMs: 4, maxDelayMs: 100, jitter: 0 },
    ...options,
  });
  const lines = (level: string) => logger.lines.filter((l) => l.level === level).map((l) => l.message);
  return { oz, lines };
}

const TAG = /^\[oz executeTool #\d+\] /;

describe('the retry step’s log', () => {
  it('a retried answer: its status and code, the wait, and the retries left', async () => {
    scripted.answer(failure(503, 'internal_error'), failure(503, 'internal_error'), { body: envelope('third') });
    const { oz, lines } = logged();
    expect((await oz.tools.execute('echo', { text: 'x' })).content).toBe('third');
    const retries = lines('info').filter((line) => line.includes('Retrying'));
    expect(retries.map((line) => line.replace(TAG, ''))).toEqual([
      '503 internal_error. Retrying in 4 ms (2 retries left).',
      '503 internal_error. Retrying in 8 ms (1 retries left).',
    ]);
    for (const line of retries) expect(line).toMatch(TAG);
  });

  it('a retried connection error: its message, the wait, and the retries left', async () => {
    scripted.answer({ destroy: true }, { body: envelope('after the reset') });
    const { oz, lines } = logged();
    expect((await oz.tools.execute('echo', { text: 'x' })).content).toBe('after the reset');
    const retries = lines('info').filter((line) => line.includes('Retrying'));
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatch(TAG);
    expect(retries[0]).toMatch(/\S Retrying in 4 ms \(2 retries left\)\.$/);
  });

  it('a Retry-After past the cap: a warning naming the cap, and no retry', async () => {
    scripted.answer(failure(429, 'rate_limited', { 'retry-after': '61' }), { body: envelope('never asked') });
    const { oz, lines } = logged();
    expect(await rejectionOf(oz.tools.execute('echo', { text: 'x' }))).toBeInstanceOf(RateLimitedError);
    expect(scripted.requests).toHaveLength(1);
    expect(lines('warn').map((line) => line.replace(TAG, ''))).toEqual(['429 asks to wait more than 60 s (Retry-After); not retrying.']);
    expect(lines('info').some((line) => line.includes('Retrying'))).toBe(false);
  });

  it('a 401 with a key function: the line saying the call is retried with its new key', async () => {
    let current = KEY;
    scripted.answer(() => ((current = `${KEY}2`), failure(401, 'unauthorized')), { body: envelope('with the new key') });
    const { oz, lines } = logged({ apiKey: () => current });
    expect((await oz.tools.execute('echo', { text: 'x' })).content).toBe('with the new key');
    expect(lines('info').map((line) => line.replace(TAG, ''))).toContain("401: retrying with the apiKey function's new key.");
  });
});
