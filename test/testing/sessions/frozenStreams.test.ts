/**
 * On a frozen clock a stream sends its tokens without waiting for the clock: in process and over HTTP, an agent's
 * tokens, a workflow's steps and a chat completion's chunks arrive (before the fix they waited for advance()).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOzServer, type OzListener, type OzServer } from '../../../src/testing/index.js';
import { readEvents } from '../support/sseEvents.js';

let server: OzServer;
let listener: OzListener;
const START = '2026-11-23T09:00:00.000Z';

beforeAll(async () => {
  // A token pace of a minute: if the stream waited for the frozen clock, nothing would arrive.
  server = createOzServer({ clock: { start: START, frozen: true }, timing: { tokenMs: 60_000, stepMs: 60_000 } });
  listener = await server.listen();
});
afterAll(() => server.close());

function execute(base: string, fetcher: typeof fetch, body: unknown, path = '/v1/execute') {
  return fetcher(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe.each([
  ['in process', () => server.url, () => server.fetch as typeof fetch],
  ['over HTTP', () => listener.url, () => fetch],
])('a frozen clock %s', (_, base, fetcher) => {
  it("streams an agent's tokens, then its result, and the clock has not moved", async () => {
    const { events, error } = await readEvents(await execute(base(), fetcher(), { agent: 'writer', user_request: 'three small words', stream: true }));
    expect(error).toBeNull();
    const tokens = events.filter((e) => e.event === 'token');
    expect(tokens.length).toBeGreaterThan(3);
    expect(events.at(-1)?.event).toBe('result');
    const result = JSON.parse(events.at(-1)!.data) as { content: string };
    expect(tokens.map((t) => (JSON.parse(t.data) as { delta: string }).delta).join('')).toBe(result.content);
    expect(server.clock.iso()).toBe(START);
  });

  it("streams a workflow's steps without waiting for the clock", async () => {
    const { events } = await readEvents(await execute(base(), fetcher(), { input: 'x' }, '/v1/workflows/draft-and-review/execute-stream'));
    expect(events.filter((e) => e.event === 'step').map((e) => (JSON.parse(e.data) as { status: string }).status)).toEqual([
      'started',
      'succeeded',
      'started',
      'succeeded',
    ]);
    expect(events.at(-1)?.event).toBe('result');
  });

  it('streams a chat completion of the models plane', async () => {
    const res = await fetcher()(`${base()}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'oz-chat', messages: [{ role: 'user', content: 'hello there' }], stream: true }),
    });
    const { events } = await readEvents(res);
    expect(events.at(-1)?.data).toBe('[DONE]');
    expect(events.length).toBeGreaterThan(3);
  });
});
