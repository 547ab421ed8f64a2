import type { IncomingMessage } from 'node:http';
import { checkDeclaredLength, payloadTooLarge, readBoundedText } from './bodyLimit.js';
import type { RequestReader } from './connection.js';

/**
 * The text of the body a mount handed over (empty when none was sent), at most `maxBytes` bytes: a larger body (by
 * its `Content-Length` before anything is read, else by the bytes as they stream) throws 413 `payload_too_large`.
 * Read here, from what the mount received, never by calling back into the mount.
 */
export function readBodyText(reader: RequestReader, maxBytes: number): Promise<string> {
  const { body } = reader;
  if (body.kind === 'web') return readBoundedText(body.stream, reader.header('content-length'), maxBytes);
  try {
    checkDeclaredLength(reader.header('content-length'), maxBytes);
  } catch (error) {
    return Promise.reject(error);
  }
  const incoming = body.incoming;
  if (incoming.complete) return bufferedText(incoming, maxBytes);
  // A small body comes with its head (in the same read, or one right after): once the reads at hand are parsed
  // (the event loop's next check phase) it waits whole in the stream's buffer, read at once without a
  // listener, a resume and an 'end' event. A body still under way is read as it streams.
  return new Promise<string>((resolve, reject) => {
    setImmediate(() => {
      if (incoming.complete) bufferedText(incoming, maxBytes).then(resolve, reject);
      else streamedText(incoming, maxBytes).then(resolve, reject);
    });
  });
}

/** The whole body of a request that came in complete, from the stream's buffer (413 past `maxBytes`). */
function bufferedText(incoming: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for (let chunk = incoming.read() as Buffer | null; chunk !== null; chunk = incoming.read() as Buffer | null) {
    bytes += chunk.length;
    if (bytes > maxBytes) return Promise.reject(payloadTooLarge(maxBytes));
    chunks.push(chunk);
  }
  if (chunks.length === 0) return Promise.resolve('');
  try {
    return Promise.resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * The body as it streams, counted: past `maxBytes` the reader lets go (413); the HTTP mount then closes the
 * connection after the answer (its `closeWhenBodyPending`). Nothing here throws out of an event handler.
 */
function streamedText(incoming: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const stop = (): void => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        stop();
        chunks.length = 0;
        reject(payloadTooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      stop();
      try {
        resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    const onError = (error: Error): void => {
      stop();
      reject(error);
    };
    incoming.on('data', onData).once('end', onEnd).once('error', onError);
  });
}
