/**
 * Sessions, stubs and verification of the embedded server, as docs/sessions.md, docs/stubs.md and docs/journal.md
 * show them (this file runs under `npm test`; its regions are those pages' snippets).
 */
import { afterAll, afterEach, expect, it } from 'vitest';
import { Oz } from 'oz-sdk';
import { createOzServer, type StubSpec } from 'oz-sdk/testing';

const server = createOzServer();
afterAll(() => server.close());

it('a session is a world of its own', async () => {
  // #region session
  const session = server.session(); // { id, apiKey, keys, reset, faults, stubs, clock, journal, ..., close }
  const oz = new Oz({ baseURL: server.url, apiKey: session.apiKey, fetch: server.fetch, logLevel: 'off' });
  const item = await oz.companies.items.create('acme', { building: 'lab', title: 'only in this session' });
  console.log(session.items.get(item.id)?.title, server.items.get(item.id)); // only in this session undefined
  session.faults.add({ operationId: 'listTools', type: 'error', status: 503, code: 'upstream_error' }); // this session's requests only
  session.reset(); // back to the baseline: this session's data, journal, faults and stubs
  await session.close(); // its keys answer 401 from now on
  // #endregion
  expect(session.items.get(item.id)).toBeUndefined();
});

afterEach(() => {
  // #region unused
  // In an afterEach: every fault and stub the test armed was used.
  expect(server.unused()).toEqual({ faults: [], stubs: [] });
  // #endregion
  server.reset();
});

it('stubs answer what a test needs, checked against openapi.json', async () => {
  const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off' });
  const real = await oz.companies.items.create('acme', { building: 'lab', title: 'a real item' });
  // #region stubs
  // A fixed answer for matching requests (path parameters, query, body subset, account), n times or until reset:
  server.stubs.add({
    operationId: 'getCompanyItem',
    match: { path: { campus: 'acme', id: 'itm_parked' } },
    answer: { status: 200, body: { ...real, id: 'itm_parked', status: 'parked', step: 'parked', parked_reason: 'needs a human' } },
    times: 1,
  });
  console.log((await oz.companies.items.get('acme', 'itm_parked')).parked_reason); // needs a human

  // Or a function of the parsed request; returning nothing lets the server answer as usual.
  server.stubs.add({
    operationId: 'executeTool',
    respond: ({ path, body, account }) =>
      path.tool === 'echo' && body.text === 'boom' && account === 'demo'
        ? { status: 429, body: { error: { code: 'rate_limited', message: 'Slow down.' } }, headers: { 'retry-after': '1' } }
        : undefined,
  });
  const limited = await oz.tools.execute('echo', { text: 'boom' }, { maxRetries: 0 }).catch((error: unknown) => error);
  console.log((limited as { status?: number }).status, (await oz.tools.execute('echo', { text: 'fine' })).content); // 429 fine

  // An answer the service would never give is refused (422 naming the field), unless `unchecked: true`. In
  // TypeScript it does not even compile: stubs are typed by their operationId, `answer.body` by the status.
  try {
    // @ts-expect-error 'sleeping' is not a status of an Item
    server.stubs.add({ operationId: 'getCompanyItem', answer: { status: 200, body: { ...real, status: 'sleeping' } } });
  } catch (error) {
    console.log((error as Error).message); // answer.body does not fit openapi.json's 200 answer of getCompanyItem: answer.body.status must be one of: ...
  }
  // #endregion
  // #region typed
  // `respond` returns a literal answer as it is, no `as const` needed; a wrong field or a status the operation
  // does not declare is a compile error.
  server.stubs.add({ operationId: 'getTool', respond: () => ({ status: 404, body: { error: { code: 'tool_not_found', message: 'Not today.' } } }), times: 1 });
  const notToday = await oz.tools.get('echo').catch((error: unknown) => error);
  console.log((notToday as { code?: string }).code); // tool_not_found

  // A stub declared apart is a `StubSpec`: the typed stub of any operation, told apart by its operationId.
  const missing: StubSpec = {
    operationId: 'getCompanyItem',
    match: { path: { id: 'itm_gone' } },
    answer: { status: 404, body: { error: { code: 'item_not_found', message: 'No item itm_gone.' } } },
  };
  server.stubs.add(missing);
  const gone = await oz.companies.items.get('acme', 'itm_gone').catch((error: unknown) => error);
  console.log((gone as { code?: string }).code); // item_not_found
  // #endregion
  // #region journal
  // The journal filters by account, header (name:value) and body (a JSON subset), in process and over HTTP:
  console.log(server.journal.count({ operationId: 'executeTool', account: 'demo', body: { text: 'boom' } })); // 1
  console.log(server.journal.filter({ header: 'content-type:application/json' }).length > 0); // true
  // #endregion
  expect(server.journal.count({ operationId: 'executeTool', account: 'demo', body: { text: 'boom' } })).toBe(1);
  expect(server.journal.filter('executeTool').map((e) => e.status)).toEqual([429, 200]);
});

it('a sequence scripts what an app must survive: an error, then the answer', async () => {
  server.reset();
  const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off' });
  const run = await oz.tools.execute('echo', { text: 'report' });
  const record = server.getExecution(run.execution_id)!;
  // #region sequences
  // `answers` instead of `answer`: the n-th matching request gets the n-th answer, and the last one repeats.
  // First a 500, then the answer: the client's retry gets the answer.
  server.stubs.add({
    operationId: 'executeTool',
    answers: [
      { status: 500, body: { error: { code: 'internal_error', message: 'Try again.' } } },
      { status: 200, body: { ...run, content: 'after a retry' } },
    ],
  });
  console.log((await oz.tools.execute('echo', { text: 'x' }, { retry: { initialDelayMs: 10 } })).content); // after a retry

  // The first two polls say running, the third succeeded; then: 'fallthrough' lets later requests reach the
  // server's own answer (and withdraws the stub) once the sequence is given.
  const running = { status: 200, body: { ...record, status: 'running', result: null, finished_at: null } } as const;
  server.stubs.add({ operationId: 'getExecution', answers: [running, running, { status: 200, body: record }], then: 'fallthrough' });
  console.log(server.stubs.list().map((s) => `${s.operationId} ${s.position}/${s.answers?.length} hits ${s.hits}`)); // [ 'executeTool 1/2 hits 2', 'getExecution 0/3 hits 0' ]
  console.log((await oz.executions.wait(record.id, { interval: 10 })).content); // report
  // #endregion
  expect(server.journal.filter('executeTool').map((e) => e.status)).toEqual([200, 500, 200]);
  expect(server.journal.filter('getExecution').map((e) => e.status)).toEqual([200, 200, 200]);
  expect(server.stubs.list().map((s) => s.operationId)).toEqual(['executeTool']);
});

it('a streamed answer scripts an agent stream event by event', async () => {
  server.reset();
  const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off' });
  // #region streamed
  // `events` instead of `body`, for an operation that streams: the events go out in order, `delayMs` of the
  // server's clock apart (a frozen clock waits for an advance); `cut: { afterEvents: n }` drops the connection.
  // Each event is checked against openapi.json's event schema; the stub answers only requests that stream.
  server.stubs.add({
    operationId: 'executeAgent',
    answer: {
      status: 200,
      events: [
        { event: 'token', data: { delta: 'Hel' } },
        { event: 'token', data: { delta: 'lo' }, delayMs: 20 },
        { event: 'error', data: { error: { code: 'approval_required', message: 'Needs a human.' } } },
      ],
    },
  });
  const stream = await oz.agents.execute({ agent: 'writer', user_request: 'refund order 1042', stream: true });
  let text = '';
  try {
    for await (const delta of stream.textDeltas()) text += delta;
  } catch (error) {
    console.log(text, (error as Error).name); // Hello ApprovalRequiredError
  }
  // #endregion
  expect(text).toBe('Hello');
  expect(server.journal.last('executeAgent')?.status).toBe(200);
});
