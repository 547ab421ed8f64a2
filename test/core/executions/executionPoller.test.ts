import { describe, expect, it } from 'vitest';
import { MIN_POLL_MS, nextPollDelay } from '../../../src/core/executions/executionPoller.js';
import { RETRY_AFTER_CAP_MS } from '../../../src/core/retry/retryPolicy.js';
import { ExecutionCancelledError, InternalError, InvalidParamsError, Oz, OzError, OzWaitTimeoutError, type ExecuteStreamEvent } from '../../../src/index.js';
import { fastClient, KEY, rejectionOf } from '../support/clients.js';
import { executionRecord } from '../support/executionRecord.js';
import { ScriptedServer, type RecordedRequest, type ScriptedAnswer } from '../support/scriptedServer.js';

// One poller serves `executions.wait()`, a pointer's `wait()` and the recovery of a lost answer (parsed and
// streamed calls): each is driven here against a scripted server with the same interval rules.

const server = ScriptedServer.forSuite();

const record = executionRecord;

/**
 * A service whose execute call loses its first answer (the retry answers 409 `duplicate_execution_id`) and whose
 * record route answers `running` with `headers` `pending` times, then `succeeded`.
 */
function lostAnswerService(pending: number, headers: Record<string, string>) {
  const started = new Set<string>();
  let polls = 0;
  return (request: RecordedRequest): ScriptedAnswer => {
    const trace = String(request.headers['x-trace-id']);
    if (request.method === 'POST') {
      if (!started.has(trace)) {
        started.add(trace);
        return { destroy: true };
      }
      return {
        status: 409,
        headers: { 'x-error-code': 'duplicate_execution_id', 'x-execution-id': trace },
        body: { error: { code: 'duplicate_execution_id', message: 'already used' } },
      };
    }
    const id = decodeURIComponent(request.path.split('/').pop()!);
    polls += 1;
    return polls <= pending ? { headers, body: record(id, 'running') } : { body: record(id, 'succeeded') };
  };
}

/** Milliseconds between consecutive polls of the record route. */
const pollGaps = () => {
  const polls = server.requests.filter((r) => r.method === 'GET');
  return polls.slice(1).map((poll, i) => poll.at - polls[i]!.at);
};

/** `count` gaps between polls, each the 60 ms of `retry-after-ms`, not the 2 s of `Retry-After` beside it. */
const expectSuggestedGaps = (count: number) => {
  const gaps = pollGaps();
  expect(gaps).toHaveLength(count);
  for (const gap of gaps) {
    expect(gap).toBeGreaterThanOrEqual(55);
    expect(gap).toBeLessThan(1_000);
  }
};

const waitingClient = () => new Oz({ baseURL: server.url, apiKey: KEY, logLevel: 'off' });

describe('the poll interval rules (nextPollDelay)', () => {
  it('prefers retry-after-ms over Retry-After, keeps a suggestion within [50 ms, 60 s], else uses the interval', () => {
    const delay = (headers: Record<string, string>, interval = 700) => nextPollDelay(new Headers(headers), interval);
    expect(delay({ 'retry-after-ms': '80', 'retry-after': '3' })).toBe(80);
    expect(delay({ 'retry-after': '2' })).toBe(2000);
    expect(delay({ 'retry-after-ms': '5' })).toBe(MIN_POLL_MS);
    expect(delay({ 'retry-after': '0' })).toBe(MIN_POLL_MS);
    expect(delay({ 'retry-after': '600' })).toBe(RETRY_AFTER_CAP_MS);
    expect(delay({ 'retry-after-ms': 'soon', 'retry-after': '1' })).toBe(1000);
    expect(delay({ 'retry-after': 'later' })).toBe(700);
    expect(delay({})).toBe(700);
  });
});

describe('executions.wait() polls on the rules', () => {
  it('a short retry-after-ms gives short waits, even beside a Retry-After of seconds', async () => {
    server.answer(
      { headers: { 'retry-after-ms': '60', 'retry-after': '2' }, body: record('exe_w', 'running') },
      { headers: { 'retry-after-ms': '60', 'retry-after': '2' }, body: record('exe_w', 'running') },
      { body: record('exe_w', 'succeeded') },
    );
    await expect(waitingClient().executions.wait('exe_w', { interval: 5_000 })).resolves.toMatchObject({ content: 'first run result' });
    expectSuggestedGaps(2);
  });

  it('never spins on Retry-After: 0 (at least 50 ms between polls)', async () => {
    server.answer({ headers: { 'retry-after': '0' }, body: record('exe_z', 'running') }, { body: record('exe_z', 'succeeded') });
    await waitingClient().executions.wait('exe_z', { interval: 0 });
    expect(pollGaps()[0]).toBeGreaterThanOrEqual(MIN_POLL_MS - 2);
  });
});

describe('lost-answer recovery polls on the same rules', () => {
  it('honours retry-after-ms over Retry-After while the first run is still running', async () => {
    server.fallback = lostAnswerService(2, { 'retry-after-ms': '60', 'retry-after': '2' });
    const result = await fastClient(server, { pollIntervalMs: 5_000 }).tools.execute('echo', { text: 'x' }, { idempotencyKey: 'exe_r1' });
    expect(result).toMatchObject({ content: 'first run result', execution_id: 'exe_r1' });
    expectSuggestedGaps(2);
  });

  it('without a suggestion backs off as wait() does: the interval, then 1.5 times the one before', async () => {
    server.fallback = lostAnswerService(3, {});
    await fastClient(server, { pollIntervalMs: 40 }).tools.execute('echo', { text: 'x' }, { idempotencyKey: 'exe_r2' });
    const gaps = pollGaps();
    expect(gaps).toHaveLength(3);
    [40, 60, 90].forEach((least, i) => expect(gaps[i]).toBeGreaterThanOrEqual(least - 2));
  });

  it('a stream call whose answer was lost is recovered through the same poller', async () => {
    server.fallback = lostAnswerService(2, { 'retry-after-ms': '60', 'retry-after': '2' });
    const stream = await fastClient(server, { pollIntervalMs: 5_000 }).agents.execute(
      { agent: 'writer', user_request: 'hi', stream: true },
      { idempotencyKey: 'exe_r3' },
    );
    const events: ExecuteStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.event)).toEqual(['token', 'result']);
    expectSuggestedGaps(2);
  });
});

// What a wait accepts (contract, 2026-11-26): only `succeeded` resolves; `failed`/`cancelled` reject typed; an
// object with any other or no status is polled again; a value that is not an object is an OzError naming it.
describe('what a wait accepts from the record route', () => {
  const NOT_RECORDS: [string, string][] = [
    ['[]', 'an array (0 items)'],
    ['"running"', 'the string "running"'],
    ['null', 'null'],
    ['42', 'the number 42'],
  ];
  const json = (text: string): ScriptedAnswer => ({ headers: { 'content-type': 'application/json' }, body: text });
  const pointerService =
    (record: string) =>
    (request: RecordedRequest): ScriptedAnswer =>
      request.method === 'POST' ? { status: 202, body: { workflow_id: null, execution_id: 'exe_p', task_id: null, status: 'queued' } } : json(record);

  it.each(NOT_RECORDS)('executions.wait() on %s rejects with an OzError naming it, after one poll', async (text, named) => {
    server.fallback = () => json(text);
    const error = await rejectionOf(waitingClient().executions.wait('exe_n', { interval: 1 }));
    expect(error).toBeInstanceOf(OzError);
    expect(error).not.toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(`The answer of GET /v1/executions/{id} is not an execution record: it is ${named}.`);
    expect(server.requests).toHaveLength(1);
  });

  it.each(NOT_RECORDS)("a pointer's wait() on %s rejects with the same OzError", async (text, named) => {
    server.fallback = pointerService(text);
    const pointer = await waitingClient().schedules.run('sch_1');
    const error = await rejectionOf(pointer.wait({ interval: 1 }));
    expect(error).toBeInstanceOf(OzError);
    expect((error as Error).message).toContain(`it is ${named}.`);
  });

  it('onProgress never sees an answer that is not a record', async () => {
    server.fallback = () => json('null');
    const seen: unknown[] = [];
    await rejectionOf(waitingClient().executions.wait('exe_n', { interval: 1, onProgress: (record) => void seen.push(record) }));
    expect(seen).toEqual([]);
  });

  it.each([
    ['an unknown status', { status: 'paused' }],
    ['no status', {}],
    ['a status that is not a string', { status: 7 }],
  ])('%s keeps polling until the run succeeds, then resolves with its content', async (_, odd) => {
    server.answer({ body: odd }, { body: odd }, { body: record('exe_o', 'succeeded') });
    await expect(waitingClient().executions.wait('exe_o', { interval: 1 })).resolves.toMatchObject({
      ok: true,
      content: 'first run result',
      execution_id: 'exe_o',
    });
    expect(server.requests).toHaveLength(3);
  });

  it("an empty object forever ends with the wait's own timeout (OzWaitTimeoutError), never { ok: true }", async () => {
    server.fallback = () => ({ body: {} });
    const error = await rejectionOf(waitingClient().executions.wait('exe_e', { interval: 1, maxInterval: 5, timeout: 200 }));
    expect(error).toBeInstanceOf(OzWaitTimeoutError);
    expect(server.requests.length).toBeGreaterThan(1);
  });

  it("a pointer's wait() keeps polling through { status: 'paused' } too", async () => {
    let polls = 0;
    server.fallback = (request) =>
      request.method === 'POST' ? pointerService('')(request) : { body: ++polls < 3 ? { status: 'paused' } : record('exe_p', 'succeeded') };
    const pointer = await waitingClient().schedules.run('sch_1');
    await expect(pointer.wait({ interval: 1 })).resolves.toMatchObject({ content: 'first run result' });
    expect(polls).toBe(3);
  });

  it('failed rejects with the typed error of its code; cancelled with ExecutionCancelledError', async () => {
    server.answer({ body: record('exe_f', 'failed', { error: { code: 'invalid_params', message: 'bad' } }) });
    expect(await rejectionOf(waitingClient().executions.wait('exe_f', { interval: 1 }))).toBeInstanceOf(InvalidParamsError);
    server.answer({ body: record('exe_c', 'cancelled') });
    expect(await rejectionOf(waitingClient().executions.wait('exe_c', { interval: 1 }))).toBeInstanceOf(ExecutionCancelledError);
  });

  it.each([
    ['a string', 'boom'],
    ['an array', []],
    ['an object without a code', { message: 'x' }],
  ])('failed with an error that is %s rejects with InternalError, not a TypeError', async (_, error) => {
    server.answer({ body: { ...record('exe_f', 'failed'), error } });
    expect(await rejectionOf(waitingClient().executions.wait('exe_f', { interval: 1 }))).toBeInstanceOf(InternalError);
  });

  it('a lost answer whose record reads null is an OzError naming it (parsed and async calls)', async () => {
    const service = lostAnswerService(0, {});
    server.fallback = (request) => (request.method === 'GET' ? json('null') : service(request));
    const error = await rejectionOf(fastClient(server).tools.execute('echo', { text: 'x' }, { idempotencyKey: 'exe_l1' }));
    expect(error).toBeInstanceOf(OzError);
    expect((error as Error).message).toContain('not an execution record: it is null');
    const asyncError = await rejectionOf(fastClient(server).tools.execute('echo', { text: 'x', async: true }, { idempotencyKey: 'exe_l2' }));
    expect(asyncError).toBeInstanceOf(OzError);
    expect((asyncError as Error).message).toContain('not an execution record: it is null');
  });
});
