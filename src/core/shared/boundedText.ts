import { OzResponseTooLargeError } from '../errors/responseTooLargeError.js';

// One decoder serves every body: decode() without `stream` keeps no state between calls. Like `Response.text()`,
// it decodes UTF-8 and drops a leading byte order mark.
const UTF8 = new TextDecoder();

/**
 * A whole body read from `reader` as `response.text()` reads it (UTF-8, a leading byte order mark dropped), or
 * {@link OzResponseTooLargeError} as soon as more than `maxBytes` came: the chunks are held only up to the bound,
 * and the reader is cancelled there. A reader cancelled by someone else ends as if the body had ended.
 */
export async function boundedText(reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number): Promise<string> {
  let first: Uint8Array | undefined;
  let more: Uint8Array[] | undefined;
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      const error = new OzResponseTooLargeError(maxBytes, size);
      void reader.cancel(error).catch(() => undefined);
      throw error;
    }
    if (first === undefined) first = value;
    else (more ??= [first]).push(value);
  }
  if (first === undefined) return '';
  if (more === undefined) return UTF8.decode(first);
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of more) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return UTF8.decode(bytes);
}
