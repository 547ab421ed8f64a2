import { getEventListeners } from 'node:events';
import { expect } from 'vitest';
import { OzAbortError } from '../../../src/core/errors/errors.js';
import { Transport, type TransportConfig } from '../../../src/core/transport.js';
import type { Logger } from '../../../src/core/shared/logger.js';
import { OzResources } from '../../../src/generated/index.js';
import { OPERATIONS } from '../../../src/generated/operations.js';
import type { ScriptedServer } from './scriptedServer.js';

/**
 * What the layer above gives every transport (as `Oz` does): the record operation and the validators' loader.
 */
export const TRANSPORT_PARTS = {
  executionRecord: OPERATIONS.getExecution,
  loadValidators: () => import('../../../src/generated/responseValidators.js'),
} satisfies Partial<TransportConfig>;

/** The platform key the tests use. */
export const KEY = 'ozk_TestKey0123456789abcdefghijklmnop';

/**
 * The generated resources over a transport to the scripted server, with a backoff of a few milliseconds so
 * retries without `Retry-After` stay fast (the production schedule is unit-tested in retryPolicy.test.ts).
 */
export function fastClient(server: ScriptedServer, config: Partial<TransportConfig> = {}): OzResources {
  return new OzResources(
    new Transport({
      baseURL: server.url,
      apiKey: KEY,
      ...TRANSPORT_PARTS,
      logLevel: 'off',
      backoff: { initialMs: 2, maxMs: 10 },
      pollIntervalMs: 5,
      ...config,
    }),
  );
}

/** A logger that keeps every line (message and arguments) it is given. */
export function recordingLogger(): Logger & { lines: { level: string; message: string; rest: unknown[] }[] } {
  const lines: { level: string; message: string; rest: unknown[] }[] = [];
  const at =
    (level: string) =>
    (message: string, ...rest: unknown[]) =>
      void lines.push({ level, message, rest });
  return { lines, error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejectionOf(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** An execution result envelope. */
export const envelope = (content: string, executionId = 'exe_1', requestId = 'req_1') => ({
  ok: true,
  content,
  execution_id: executionId,
  request_id: requestId,
});

/**
 * Starts a call with a signal, aborts it (`user gave up`) once the server has its request and `afterMs` more passed,
 * and checks it rejected with that {@link OzAbortError}, after one request, leaving no listener on the signal.
 */
export async function expectAbortedMidCall(server: ScriptedServer, start: (signal: AbortSignal) => PromiseLike<unknown>, afterMs = 20): Promise<void> {
  const controller = new AbortController();
  const call = start(controller.signal);
  while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  await new Promise((resolve) => setTimeout(resolve, afterMs));
  controller.abort(new Error('user gave up'));
  const error = await rejectionOf(call);
  expect(error).toBeInstanceOf(OzAbortError);
  expect((error as OzAbortError).cause).toEqual(new Error('user gave up'));
  expect(server.requests).toHaveLength(1);
  expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
}
