import type { Connection } from '../wire/connection.js';

/** What undici throws when a connection closes under a response body. */
export function terminated(): TypeError {
  return new TypeError('terminated', { cause: new Error('other side closed') });
}

/**
 * Hands a streamed body to the client as a real connection would: the request's abort errors it (reads
 * reject with the abort reason) and cancels the server's side; a cut connection ends it with `endCut` after
 * what was sent before the cut (in process: `TypeError: terminated`). For an event stream's answer only.
 */
export function guardStreamedBody(
  response: Response,
  signal: AbortSignal | null,
  conn: Connection,
  endCut: (controller: ReadableStreamDefaultController<Uint8Array>) => void = (c) => c.error(terminated()),
): Response {
  const source = response.body;
  if (!source) return response;
  const reader = source.getReader();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cut = false;
  let finished = false;
  const onAbort = () => {
    if (finished || !signal) return;
    finished = true;
    try {
      controller.error(signal.reason);
    } catch {
      // already errored
    }
    reader.cancel(signal.reason).catch(() => undefined);
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    async pull(c) {
      try {
        const { done, value } = await reader.read();
        if (finished) return;
        if (!done) return c.enqueue(value);
        finished = true;
        signal?.removeEventListener('abort', onAbort);
        if (cut) endCut(c);
        else c.close();
      } catch (err) {
        if (!finished) c.error(err);
        finished = true;
      }
    },
    cancel(reason) {
      finished = true;
      signal?.removeEventListener('abort', onAbort);
      return reader.cancel(reason);
    },
  });
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  conn.onCut(() => {
    cut = true;
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
