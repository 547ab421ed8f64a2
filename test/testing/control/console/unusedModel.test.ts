/** The console's "Never fired" list, built from the server's own `GET /_oz/unused` answer (the data the view shows). */
import { afterEach, describe, expect, it } from 'vitest';
import { createOzServer, type OzServer } from '../../../../src/testing/index.js';
import { sequenceOf, unusedLines } from '../../../../src/testing/control/console/unusedModel.js';

const TOKEN = 'ozadm_UnusUnusUnusUnusUnusUnusUnusUnus';
let server: OzServer;
afterEach(() => server?.close());

async function unusedOverHttp(url: string): Promise<unknown> {
  const res = await fetch(`${url}/_oz/unused`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  return res.json();
}

describe('unusedLines', () => {
  it("shows a stub's near miss on another path parameter and where its sequence stands (before: the view read a `data` list the server never sends)", async () => {
    server = createOzServer({ adminToken: TOKEN });
    const listener = await server.listen();
    const gone = { status: 404, body: { error: { code: 'item_not_found', message: 'gone' } } } as const;
    const stub = server.stubs.add({ operationId: 'getCompanyItem', match: { path: { campus: 'acme', id: 'itm_x' } }, answers: [gone, gone] });
    await fetch(`${listener.url}/v1/companies/acme/items/itm_y`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    const lines = unusedLines(await unusedOverHttp(listener.url));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      kind: 'stub',
      id: stub.id,
      title: `stub ${stub.id} (getCompanyItem) never fired`,
      sequence: 'answer 1 of 2, then repeat',
    });
    expect(lines[0]!.nearMisses).toHaveLength(1);
    expect(lines[0]!.nearMisses[0]).toMatch(/^GET \/v1\/companies\/acme\/items\/itm_y \(req_\w+\): path\.id expected "itm_x", got "itm_y"$/);
  });

  it('lists faults before stubs, says so when nothing came close, and is empty when all fired', async () => {
    server = createOzServer({ adminToken: TOKEN });
    const listener = await server.listen();
    expect(unusedLines(await unusedOverHttp(listener.url))).toEqual([]);
    server.faults.add({ operationId: 'listTools', type: 'error', status: 503, code: 'upstream_error' });
    server.stubs.add({ operationId: 'listAgents', answer: { status: 200, body: { data: [], next_cursor: null } } } as never);
    const lines = unusedLines(await unusedOverHttp(listener.url));
    expect(lines.map((l) => [l.kind, l.nearMisses.length, l.sequence])).toEqual([
      ['fault', 0, null],
      ['stub', 0, null],
    ]);
  });

  it('sequenceOf names the position of a sequence and nothing for a single answer', () => {
    expect(sequenceOf({ answers: [1, 2, 3], position: 2, then: 'fallthrough' })).toBe('answer 3 of 3, then fallthrough');
    expect(sequenceOf({ answers: null, position: null, then: null })).toBeNull();
  });
});
