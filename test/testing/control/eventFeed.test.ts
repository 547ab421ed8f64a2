/**
 * A reset ends the live feed `GET /_oz/events` as it ends the API's streams: one `error` event of code `reset`, then
 * the end, over a real socket; a feed opened after the reset follows the new state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOzServer, type OzListener, type OzServer } from '../../../src/testing/index.js';

const TOKEN = 'ozadm_FeedFeedFeedFeedFeedFeedFeedFeed';
const ADMIN = { authorization: `Bearer ${TOKEN}` };
let server: OzServer;
let listener: OzListener;

beforeAll(async () => {
  server = createOzServer({ adminToken: TOKEN });
  listener = await server.listen();
});
afterAll(() => server.close());

/** A feed read over the socket: its text so far, read on until a condition holds or the feed ends. */
class Feed {
  text = '';
  ended = false;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();

  constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = body.getReader();
  }

  /** Reads until `until` holds of the text read so far, or the feed ends. */
  async readUntil(until: (text: string) => boolean): Promise<void> {
    while (!this.ended && !until(this.text)) {
      const { value, done } = await this.#reader.read();
      if (done) this.ended = true;
      else this.text += this.#decoder.decode(value, { stream: true });
    }
  }

  stop(): Promise<void> {
    return this.#reader.cancel();
  }
}

/** Opens the feed over the socket and waits for its `ready` (it listens from then on). */
async function openFeed(path = '/_oz/events'): Promise<Feed> {
  const res = await fetch(`${listener.url}${path}`, { headers: ADMIN });
  expect(res.status).toBe(200);
  const feed = new Feed(res.body!);
  await feed.readUntil((text) => text.includes('event: ready\ndata: {}\n\n'));
  return feed;
}

async function expectEndedByReset(feed: Feed): Promise<void> {
  await feed.readUntil(() => false);
  expect(feed.ended).toBe(true);
  const data = /event: error\ndata: (.*)\n\n$/.exec(feed.text)?.[1];
  expect(data).toBeDefined();
  expect((JSON.parse(data!) as { error: { code: string } }).error.code).toBe('reset');
}

describe('a reset ends the live feed', () => {
  it('reset() in process: the feed sends error (code reset) and ends', async () => {
    const feed = await openFeed();
    server.reset();
    await expectEndedByReset(feed);
  });

  it('POST /_oz/reset: the feed sends error (code reset) and ends', async () => {
    const feed = await openFeed();
    const res = await fetch(`${listener.url}/_oz/reset`, { method: 'POST', headers: ADMIN });
    expect(res.status).toBeLessThan(300);
    await expectEndedByReset(feed);
  });

  it('a feed opened after the reset follows the new state', async () => {
    server.reset();
    const feed = await openFeed();
    await fetch(`${listener.url}/v1/tools`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    await feed.readUntil((text) => text.includes('"/v1/tools"'));
    expect(feed.ended).toBe(false);
    expect(feed.text).toMatch(/^event: entry\ndata: .*"\/v1\/tools"/m);
    await feed.stop();
  });

  it('a session’s reset ends that session’s feed alone', async () => {
    const session = server.session();
    try {
      const mine = await openFeed(`/_oz/sessions/${session.id}/events`);
      const other = await openFeed();
      const res = await fetch(`${listener.url}/_oz/sessions/${session.id}/reset`, { method: 'POST', headers: ADMIN });
      expect(res.status).toBeLessThan(300);
      await expectEndedByReset(mine);
      // The default world's feed goes on: it still sees the next request.
      await fetch(`${listener.url}/v1/agents`, { headers: { authorization: `Bearer ${server.apiKey}` } });
      await other.readUntil((text) => text.includes('"/v1/agents"'));
      expect(other.ended).toBe(false);
      await other.stop();
    } finally {
      await session.close();
    }
  });
});
