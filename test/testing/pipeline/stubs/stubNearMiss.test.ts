/** Near misses of a stub that never fired: what of the closest requests differed, at the level of the computation. */
import { describe, expect, it } from 'vitest';
import { createOzServer } from '../../../../src/testing/index.js';

const err = { status: 404, body: { error: { code: 'item_not_found', message: 'gone' } } } as const;

describe('stubDifferences via server.unused()', () => {
  it('names the other path parameter a request came with, on every kind of path parameter', async () => {
    const server = createOzServer();
    const h = { authorization: `Bearer ${server.apiKey}` };
    server.stubs.add({ operationId: 'getCompanyItem', match: { path: { campus: 'acme', id: 'itm_x' } }, answer: err });
    server.stubs.add({
      operationId: 'proxyGet',
      match: { path: { provider: 'github', path: 'repos/a' } },
      answer: { status: 404, body: { error: { code: 'not_found', message: 'x' } } },
    } as never);
    await server.fetch(`${server.url}/v1/companies/glob%2Fex/items/itm_x`, { headers: h });
    await server.fetch(`${server.url}/v1/proxy/github/repos/b`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    const [item, proxy] = server.unused().stubs;
    expect(item!.nearMisses.map((m) => m.differences)).toEqual([[{ path: 'path.campus', expected: 'acme', actual: 'glob/ex' }]]);
    expect(proxy!.nearMisses.map((m) => m.differences)).toEqual([[{ path: 'path.path', expected: 'repos/a', actual: 'repos/b' }]]);
  });

  it('a streamed stub hit by a request that did not stream names body.stream (before: no near miss)', async () => {
    const server = createOzServer();
    server.stubs.add({
      operationId: 'executeAgent',
      match: { body: { agent: 'support' } },
      answer: { status: 200, events: [{ event: 'token', data: { delta: 'x' } }] },
    } as never);
    await server.fetch(`${server.url}/v1/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'support', user_request: 'hi' }),
    });
    const [stub] = server.unused().stubs;
    expect(stub!.nearMisses).toHaveLength(1);
    expect(stub!.nearMisses[0]!.differences).toEqual([{ path: 'body.stream', expected: true, actual: undefined }]);
  });

  it('a chat stub scripted by the last user message names the message that came (before: no near miss)', async () => {
    const server = createOzServer();
    server.stubs.add({ operationId: 'createChatCompletion', match: { lastUserMessage: { contains: 'weather' } }, answer: { reply: { content: 'sunny' } } });
    await server.fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'oz-chat', messages: [{ role: 'user', content: 'the news' }] }),
    });
    const [stub] = server.unused().stubs;
    expect(stub!.nearMisses.map((m) => m.differences)).toEqual([[{ path: 'lastUserMessage', expected: { contains: 'weather' }, actual: 'the news' }]]);
  });
});
