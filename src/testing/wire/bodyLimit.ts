import { OzMockError } from '../contract/errors.js';

/** The request body bound unless `maxBodyBytes` (`--max-body-bytes`) says otherwise: 10 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * The largest bound that can be set: 256 MiB. A body is read into one string, and V8's strings end a little
 * under 512 Mi characters (`ERR_STRING_TOO_LONG`); half of that leaves room for any UTF-8.
 */
export const MAX_BODY_BYTES_CEILING = 256 * 1024 * 1024;

/** The `maxBodyBytes` option checked: a whole number of bytes from 1 to {@link MAX_BODY_BYTES_CEILING}. */
export function maxBodyBytes(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_BODY_BYTES;
  if (!(Number.isInteger(value) && value >= 1 && value <= MAX_BODY_BYTES_CEILING)) {
    throw new RangeError(`maxBodyBytes must be a whole number from 1 to ${MAX_BODY_BYTES_CEILING} (256 MiB), got ${String(value)}`);
  }
  return value;
}

/** 413 `payload_too_large`. */
export function payloadTooLarge(limit: number): OzMockError {
  return new OzMockError(413, 'payload_too_large', `The request body is larger than this server accepts (${limit} bytes).`, {
    hint: 'Send a smaller body; oz-mock takes a larger one with --max-body-bytes N (createOzServer({ maxBodyBytes })).',
  });
}

/** Throws 413 when the request's `Content-Length` announces more than `limit` bytes: nothing is read then. */
export function checkDeclaredLength(contentLength: string | null, limit: number): void {
  if (contentLength !== null && /^\s*\d+\s*$/.test(contentLength) && Number(contentLength) > limit) throw payloadTooLarge(limit);
}

// One decoder for every body: each new TextDecoder opens its own converter on its first decode (about 14 µs a
// request, a tenth of the msw mount's cost over a hand-written handler), and a decode without `stream` keeps no state.
const UTF8 = new TextDecoder();

/** `chunks` (of `bytes` bytes in all) as one array: the one chunk itself when there is one. */
function joined(chunks: readonly Uint8Array[], bytes: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(bytes);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}

/**
 * The text of a Fetch-API body, read chunk by chunk: past `limit` bytes the stream is cancelled and 413
 * `payload_too_large` thrown, so no more than the bound (and one chunk) is ever held.
 */
export async function readBoundedText(body: ReadableStream<Uint8Array> | null, contentLength: string | null, limit: number): Promise<string> {
  checkDeclaredLength(contentLength, limit);
  if (body === null) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return UTF8.decode(joined(chunks, bytes));
    bytes += value.byteLength;
    if (bytes > limit) {
      await reader.cancel().catch(() => undefined);
      throw payloadTooLarge(limit);
    }
    chunks.push(value);
  }
}
