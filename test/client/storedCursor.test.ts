import { describe, expect, it } from 'vitest';
import { Oz } from '../../src/index.js';
import { testServersForSuite } from '../support/ozServer.js';

const servers = testServersForSuite();

describe('a stored cursor, sent the way a user pages for their own clients', () => {
  it('executions.list({ limit, cursor }) sends the cursor and answers the next page', async () => {
    const server = servers.create();
    const oz = new Oz({ apiKey: server.apiKey, baseURL: server.url, fetch: server.fetch, logLevel: 'off' });
    for (let i = 0; i < 5; i++) await oz.tools.execute('echo', { params: { text: `run ${i}` } });

    const p1 = await oz.executions.list({ limit: 2 });
    expect(p1.data).toHaveLength(2);
    expect(p1.next_cursor).toBeTruthy();
    const p2 = await oz.executions.list({ limit: 2, cursor: p1.next_cursor! });
    expect(p2.data).toHaveLength(2);
    expect(p2.data.map((e) => e.id)).not.toEqual(expect.arrayContaining(p1.data.map((e) => e.id)));

    const seen = server.journal.filter('listExecutions').map((entry) => new URLSearchParams(entry.query).get('cursor'));
    expect(seen).toEqual([null, p1.next_cursor]);
  });
});
