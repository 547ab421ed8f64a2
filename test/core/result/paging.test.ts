import { getEventListeners } from 'node:events';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { InternalError, Oz, OzAbortError, OzError, OzUsageError, Page, PagePromise } from '../../../src/index.js';
import { KEY } from '../support/clients.js';
import { ScriptedServer, type RecordedRequest, type ScriptedAnswer } from '../support/scriptedServer.js';
import { collect, rejectionOf } from '../support/sse.js';

const server = ScriptedServer.forSuite();

const client = () => new Oz({ baseURL: server.url, apiKey: KEY, logLevel: 'off', maxRetries: 0 });

/** `count` items named item0..; pages of `limit` (default 20); the cursor is the index of the next item. */
function pagedService(count: number, options: { wire?: 'json' | 'yaml'; delayMs?: number; failAt?: string } = {}) {
  return (request: RecordedRequest): ScriptedAnswer => {
    const cursor = request.query.get('cursor');
    if (options.failAt !== undefined && cursor === options.failAt) {
      return { status: 500, headers: { 'x-error-code': 'internal_error' }, body: { error: { code: 'internal_error', message: 'page broke' } } };
    }
    const start = cursor === null ? 0 : Number(cursor.slice(1));
    const limit = Number(request.query.get('limit') ?? 20);
    const data = Array.from({ length: Math.max(0, Math.min(limit, count - start)) }, (_, i) => ({ name: `item${start + i}`, description: 'x' }));
    const body = { data, next_cursor: start + limit < count ? `c${start + limit}` : null };
    if (options.wire === 'yaml') return { headers: { 'content-type': 'text/yaml' }, body: yaml.dump(body), delayMs: options.delayMs };
    return { body, delayMs: options.delayMs };
  };
}
const names = (items: { name: string }[]) => items.map((item) => item.name);
const cursors = () => server.requests.map((request) => request.query.get('cursor'));

describe('auto-paging', () => {
  it('for await walks every item across 4 pages, keeping the query and sending each next_cursor', async () => {
    server.fallback = pagedService(7);
    const items = await collect(client().tools.list({ limit: 2 }));
    expect(names(items)).toEqual(['item0', 'item1', 'item2', 'item3', 'item4', 'item5', 'item6']);
    expect(cursors()).toEqual([null, 'c2', 'c4', 'c6']);
    expect(server.requests.every((request) => request.query.get('limit') === '2' && request.path === '/v1/tools')).toBe(true);
  });

  it('awaited, a list call is one Page: data and next_cursor as sent, hasNextPage(), nextPageParams(), getNextPage()', async () => {
    server.fallback = pagedService(5);
    const first = await client().agents.list({ limit: 2 });
    expect(first).toBeInstanceOf(Page);
    expect(first).toEqual({
      data: [
        { name: 'item0', description: 'x' },
        { name: 'item1', description: 'x' },
      ],
      next_cursor: 'c2',
    });
    expect(JSON.parse(JSON.stringify(first))).toEqual({ data: first.data, next_cursor: 'c2' });
    expect(first.hasNextPage()).toBe(true);
    expect(first.nextPageParams()).toEqual({ cursor: 'c2' });
    expect(first.response.status).toBe(200);
    const second = await first.getNextPage();
    const third = await second.getNextPage();
    expect(names(third.data)).toEqual(['item4']);
    expect([third.next_cursor, third.hasNextPage(), third.nextPageParams()]).toEqual([null, false, null]);
    await expect(third.getNextPage()).rejects.toBeInstanceOf(OzUsageError);
    expect(server.requests).toHaveLength(3);
  });

  it('an empty next_cursor ends the walk too', async () => {
    server.answer({ body: { data: [{ name: 'only' }], next_cursor: '' } });
    const page = await client().tools.list();
    expect(page.hasNextPage()).toBe(false);
    expect(names(await collect(page))).toEqual(['only']);
    expect(server.requests).toHaveLength(1);
  });

  it('iterPages() gives each page; a Page walks its items and the later pages', async () => {
    server.fallback = pagedService(7);
    const oz = client();
    const pages = await collect(oz.workflows.list({ limit: 3 }).iterPages());
    expect(pages.map((page) => names(page.data))).toEqual([['item0', 'item1', 'item2'], ['item3', 'item4', 'item5'], ['item6']]);
    const second = await (await oz.workflows.list({ limit: 3 })).getNextPage();
    expect(names(await collect(second))).toEqual(['item3', 'item4', 'item5', 'item6']);
    expect((await collect(second.iterPages())).length).toBe(2);
  });

  it('breaking out fetches no further page', async () => {
    server.fallback = pagedService(10);
    for await (const item of client().tools.list({ limit: 2 })) if (item.name === 'item2') break;
    expect(cursors()).toEqual([null, 'c2']);
  });

  it('aborting the signal stops the walk at the next item, and mid-request; no listener is left', async () => {
    server.fallback = pagedService(10);
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const item of client().tools.list({ limit: 4 }, { signal: controller.signal })) {
          seen.push(item.name);
          if (item.name === 'item5') controller.abort();
        }
      })(),
    );
    expect(error).toBeInstanceOf(OzAbortError);
    expect(seen).toEqual(['item0', 'item1', 'item2', 'item3', 'item4', 'item5']);
    expect(cursors()).toEqual([null, 'c4']);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);

    server.reset();
    server.fallback = (request) => ({ ...pagedService(10)(request), delayMs: request.query.has('cursor') ? 5000 : 0 });
    const midRequest = new AbortController();
    const walk = collect(client().tools.list({ limit: 4 }, { signal: midRequest.signal }));
    setTimeout(() => midRequest.abort(), 50);
    expect(await rejectionOf(walk)).toBeInstanceOf(OzAbortError);
    expect(getEventListeners(midRequest.signal, 'abort')).toHaveLength(0);
  });

  it('an error answer on a later page is thrown from the loop after the earlier items', async () => {
    server.fallback = pagedService(10, { failAt: 'c4' });
    const seen: string[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const item of client().tools.list({ limit: 2 })) seen.push(item.name);
      })(),
    );
    expect(error).toBeInstanceOf(InternalError);
    expect(seen).toEqual(['item0', 'item1', 'item2', 'item3']);
  });

  it('pages on the yaml wire walk the same way', async () => {
    server.fallback = pagedService(5, { wire: 'yaml' });
    expect(names(await collect(client().tools.list({ limit: 2 }, { format: 'yaml' })))).toEqual(['item0', 'item1', 'item2', 'item3', 'item4']);
    expect(server.requests.every((request) => request.query.get('format') === 'yaml')).toBe(true);
  });

  it('withResponse() of a list call gives the Page and the raw answer', async () => {
    server.answer({ headers: { 'x-request-id': 'req_list' }, body: { data: [], next_cursor: null } });
    const { data, requestId } = await client().tools.list().withResponse();
    expect(data).toBeInstanceOf(Page);
    expect(requestId).toBe('req_list');
  });

  it('every list route answers a PagePromise that walks its pages', async () => {
    const oz = client();
    const calls: [string, () => PagePromise<unknown>][] = [
      ['/v1/tools', () => oz.tools.list({ limit: 1 })],
      ['/v1/agents', () => oz.agents.list({ limit: 1 })],
      ['/v1/workflows', () => oz.workflows.list({ limit: 1 })],
      ['/v1/schedules', () => oz.schedules.list({ limit: 1 })],
      ['/v1/executions', () => oz.executions.list({ limit: 1 })],
      ['/v1/traces', () => oz.traces.list({ limit: 1 })],
      ['/v1/discovery', () => oz.discovery.search({ q: 'x', limit: 1 })],
      ['/v1/companies/acme/items', () => oz.companies.items.list('acme', { limit: 1 })],
    ];
    for (const [path, call] of calls) {
      server.reset();
      server.fallback = pagedService(3);
      const promise = call();
      expect(promise).toBeInstanceOf(PagePromise);
      expect(await collect(promise)).toHaveLength(3);
      expect(server.requests.map((request) => request.path)).toEqual([path, path, path]);
    }
  });
});

describe('an empty page ends the walk, whatever its next_cursor says', () => {
  it('for await over executions.list() against empty pages that carry a cursor asks once and yields nothing', async () => {
    server.fallback = () => ({ body: { data: [], next_cursor: 'again' } });
    expect(await collect(client().executions.list())).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('items, then an empty page with a cursor: the walk ends after that page', async () => {
    server.answer({ body: { data: [{ id: 'exe_1' }], next_cursor: 'c1' } });
    server.fallback = () => ({ body: { data: [], next_cursor: 'c2' } });
    expect(await collect(client().executions.list())).toEqual([{ id: 'exe_1' }]);
    expect(cursors()).toEqual([null, 'c1']);
  });

  it('an empty page has no next page: hasNextPage() is false, getNextPage() is the usage error, iterPages() ends', async () => {
    server.fallback = () => ({ body: { data: [], next_cursor: 'again' } });
    const page = await client().tools.list();
    expect([page.next_cursor, page.hasNextPage()]).toEqual(['again', false]);
    const error = await rejectionOf(page.getNextPage());
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toContain('it has no items');
    expect(await collect(page.iterPages())).toHaveLength(1);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    [{}, 'an empty object'],
    [[], 'an array (0 items)'],
    [null, 'null'],
    [{ data: 'x', next_cursor: null }, 'an object with keys data, next_cursor'],
    ['page', 'the string "page"'],
  ])('a 200 whose body is not a page (%j) is an OzError naming what came', async (body, named) => {
    server.answer({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    const error = await rejectionOf(client().tools.list());
    expect(error).toBeInstanceOf(OzError);
    expect((error as Error).message).toBe(`The answer of a list call is not a page (\`data\`, \`next_cursor\`): it is ${named}.`);
  });
});
