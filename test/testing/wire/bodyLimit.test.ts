/**
 * The request body read under its bound (`readBoundedText`): text whole across chunks (a character split between
 * two chunks included), two bodies read at once each their own, and 413 `payload_too_large` past the bound, read
 * or declared, with the stream cancelled.
 */
import { describe, expect, it } from 'vitest';
import { OzMockError } from '../../../src/testing/contract/errors.js';
import { readBoundedText } from '../../../src/testing/wire/bodyLimit.js';

/** A body of `chunks`, handed out one per read; `cancelled` says whether the reader gave up on it. */
function bodyOf(chunks: readonly Uint8Array[]): { body: ReadableStream<Uint8Array>; cancelled: () => boolean } {
  let next = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]!);
      else controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return { body, cancelled: () => cancelled };
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe('readBoundedText', () => {
  it('reads a body of one chunk, of none, and no body', async () => {
    expect(await readBoundedText(bodyOf([bytes('{"text":"hello"}')]).body, null, 1024)).toBe('{"text":"hello"}');
    expect(await readBoundedText(bodyOf([]).body, null, 1024)).toBe('');
    expect(await readBoundedText(null, null, 1024)).toBe('');
  });

  it('joins chunks, a character split between two of them included', async () => {
    const whole = bytes('{"title":"Zürich ✓ 日本"}');
    const cut = whole.indexOf(0xc3) + 1; // inside the two bytes of "ü"
    const { body } = bodyOf([whole.subarray(0, cut), whole.subarray(cut, cut + 5), whole.subarray(cut + 5)]);
    expect(await readBoundedText(body, null, 1024)).toBe('{"title":"Zürich ✓ 日本"}');
  });

  it('reads two bodies at once, each into its own text', async () => {
    const a = bytes('ä'.repeat(50));
    const b = bytes('日'.repeat(50));
    const [textA, textB] = await Promise.all([
      readBoundedText(bodyOf([a.subarray(0, 51), a.subarray(51)]).body, null, 1024),
      readBoundedText(bodyOf([b.subarray(0, 31), b.subarray(31)]).body, null, 1024),
    ]);
    expect(textA).toBe('ä'.repeat(50));
    expect(textB).toBe('日'.repeat(50));
  });

  it('answers 413 past the bound and cancels the body', async () => {
    const { body, cancelled } = bodyOf([bytes('x'.repeat(8)), bytes('x'.repeat(8)), bytes('x'.repeat(8))]);
    const error = await readBoundedText(body, null, 10).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OzMockError);
    expect(error).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(cancelled()).toBe(true);
  });

  it('answers 413 for a declared length past the bound without reading', async () => {
    const { body } = bodyOf([bytes('small')]);
    await expect(readBoundedText(body, '11', 10)).rejects.toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(body.locked).toBe(false);
  });
});
