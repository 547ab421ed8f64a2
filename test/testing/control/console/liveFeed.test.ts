/** The console's live feed reads `/_oz/events` with the client's parser: any line end, events split across chunks. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ControlApi } from '../../../../src/testing/control/console/controlApi.js';
import { followFeed } from '../../../../src/testing/control/console/liveFeed.js';

afterEach(() => vi.unstubAllGlobals());

/** A feed answered with these chunks of text, then held open until the reader stops. */
function feedOf(chunks: readonly string[]): void {
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        init.signal?.addEventListener('abort', () => controller.error(new Error('stopped')));
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  });
}

async function entriesRead(chunks: readonly string[], count: number): Promise<{ ready: number; entries: unknown[] }> {
  feedOf(chunks);
  const seen = { ready: 0, entries: [] as unknown[] };
  const stop = followFeed(new ControlApi('ozadm_x', null), { ready: () => seen.ready++, entry: (e) => seen.entries.push(e), down: () => {} });
  await vi.waitFor(() => expect(seen.entries.length).toBe(count));
  stop();
  return seen;
}

describe('followFeed', () => {
  it.each([
    ['LF', '\n'],
    ['CR', '\r'],
    ['CRLF', '\r\n'],
  ])('reads events with %s line ends, split anywhere', async (_, end) => {
    const text = `event: ready${end}data: {}${end}${end}: ping${end}${end}event: entry${end}data: {"n":1}${end}${end}event: entry${end}data: {"n":2}${end}${end}`;
    const chunks = [text.slice(0, 7), text.slice(7, 30), text.slice(30, 31), text.slice(31)];
    expect(await entriesRead(chunks, 2)).toEqual({ ready: 1, entries: [{ n: 1 }, { n: 2 }] });
  });

  it('hands on no entry the feed has not closed with a blank line', async () => {
    const seen = await entriesRead(['event: ready\ndata: {}\n\nevent: entry\ndata: {"n":1}\n\nevent: entry\ndata: {"n":2}\n'], 1);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen.entries).toEqual([{ n: 1 }]);
  });
});
