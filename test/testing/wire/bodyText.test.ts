/** Reading the body a mount handed over (src/testing/wire/bodyText.ts): a web stream, or Node's request as it is. */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBodyText } from '../../../src/testing/wire/bodyText.js';
import type { RequestBody, RequestReader } from '../../../src/testing/wire/connection.js';

/** A reader of `body` with the given headers. */
function readerOf(body: RequestBody, headers: Record<string, string> = {}): RequestReader {
  return { header: (name) => headers[name] ?? null, body, headerSource: () => () => new Headers(headers) };
}

/** Node's request as far as the reader uses it: a readable of `chunks`, `complete` once it ended. */
function nodeBody(chunks: readonly string[], complete: boolean): RequestBody {
  const stream = Readable.from(
    chunks.map((c) => Buffer.from(c)),
    { objectMode: false },
  ) as Readable & { complete: boolean };
  stream.complete = complete;
  return { kind: 'node', incoming: stream as unknown as IncomingMessage };
}

const tooLarge = { status: 413, code: 'payload_too_large' };

describe('readBodyText', () => {
  it('reads a web stream, and none as empty', async () => {
    expect(await readBodyText(readerOf({ kind: 'web', stream: new Response('{"a":1}').body }), 100)).toBe('{"a":1}');
    expect(await readBodyText(readerOf({ kind: 'web', stream: null }), 100)).toBe('');
  });

  it('refuses a body whose Content-Length is over the bound before reading a byte, on either kind', async () => {
    let pulled = false;
    const stream = new ReadableStream<Uint8Array>({ pull: () => void (pulled = true) }, { highWaterMark: 0 });
    await expect(readBodyText(readerOf({ kind: 'web', stream }, { 'content-length': '11' }), 10)).rejects.toMatchObject(tooLarge);
    expect(pulled).toBe(false);
    await expect(readBodyText(readerOf(nodeBody(['x'], false), { 'content-length': '11' }), 10)).rejects.toMatchObject(tooLarge);
  });

  it("reads Node's request as it streams, in several chunks, and refuses one that grows past the bound", async () => {
    expect(await readBodyText(readerOf(nodeBody(['{"a":', '1}'], false)), 100)).toBe('{"a":1}');
    await expect(readBodyText(readerOf(nodeBody(['12345', '67890', 'x'], false)), 10)).rejects.toMatchObject(tooLarge);
  });

  it('reads a complete request from its buffer, and refuses one over the bound', async () => {
    const buffered = (chunks: string[]) => {
      const body = nodeBody([], true);
      const queue = chunks.map((c) => Buffer.from(c));
      (body as { incoming: { read: () => Buffer | null } }).incoming.read = () => queue.shift() ?? null;
      return body;
    };
    expect(await readBodyText(readerOf(buffered(['ab', 'cd'])), 10)).toBe('abcd');
    expect(await readBodyText(readerOf(buffered([])), 10)).toBe('');
    await expect(readBodyText(readerOf(buffered(['123456', '789012'])), 10)).rejects.toMatchObject(tooLarge);
  });
});
