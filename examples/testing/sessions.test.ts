/**
 * Sessions, stubs and verification of the embedded server, as docs/sessions.md, docs/stubs.md and docs/journal.md
 * show them (this file runs under `npm test`; its regions are those pages' snippets).
 */
import { afterAll, afterEach, expect, it } from 'vitest';
import { Oz } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

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

  // An answer the service would never give is refused (422 naming the field), unless `unchecked: true`:
  try {
    server.stubs.add({ operationId: 'getCompanyItem', answer: { status: 200, body: { ...real, status: 'sleeping' } } });
  } catch (error) {
    console.log((error as Error).message); // answer.body does not fit openapi.json's 200 answer of getCompanyItem: answer.body.status must be one of: ...
  }
  // #endregion
  // #region journal
  // The journal filters by account, header (name:value) and body (a JSON subset), in process and over HTTP:
  console.log(server.journal.count({ operationId: 'executeTool', account: 'demo', body: { text: 'boom' } })); // 1
  console.log(server.journal.filter({ header: 'content-type:application/json' }).length > 0); // true
  // #endregion
  expect(server.journal.count({ operationId: 'executeTool', account: 'demo', body: { text: 'boom' } })).toBe(1);
  expect(server.journal.filter('executeTool').map((e) => e.status)).toEqual([429, 200]);
});
