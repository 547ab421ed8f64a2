import { replyResponse } from '../wire/requestOutcome.js';
import type { RequestHandler } from '../pipeline/serverStep.js';
import { Connection, fetchRequestReader, type MountKind } from '../wire/connection.js';
import { guardStreamedBody } from './streamGuard.js';

/** The request header that sets the client address on the in-process and msw mounts. */
export const CLIENT_ADDRESS_HEADER = 'x-oz-mock-client-address';

/** What undici throws when the connection drops before an answer. */
export function fetchFailed(): TypeError {
  return new TypeError('fetch failed', { cause: new Error('other side closed') });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/**
 * The answer, or a rejection with the abort reason when the signal aborts first. Most answers come within the
 * turn of the event loop they were asked in (in-process answers wait on nothing): the abort listener is armed
 * only once a turn went by without the answer (one `setImmediate`, cheaper than adding and removing a listener),
 * and an abort in that first turn is seen when the answer comes. From then on an abort rejects at once.
 */
function untilAborted<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let onAbort: (() => void) | null = null;
    const arm = setImmediate(() => {
      if (signal.aborted) return reject(abortReason(signal));
      onAbort = () => reject(abortReason(signal));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    const settle = (): boolean => {
      clearImmediate(arm);
      if (onAbort) signal.removeEventListener('abort', onAbort);
      if (!signal.aborted) return true;
      reject(abortReason(signal));
      return false;
    };
    pending.then(
      (r) => {
        if (settle()) resolve(r);
      },
      (err: unknown) => {
        if (settle()) reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/** What a mount needs of the options: the server's URLs (which one a request came to) and the client's address. */
export interface MountOptions {
  readonly url: string;
  readonly mcpUrl: string;
  /** The MCP URL's origin with a trailing slash: a request to it is on the MCP surface. */
  readonly mcpOrigin: string;
  /** The address a request is from when no {@link CLIENT_ADDRESS_HEADER} says otherwise. */
  readonly clientAddress: string;
}

/**
 * Serves one request in process, as `fetch` would over a socket: `{mcp_url}`'s origin reaches the MCP
 * server; an abort rejects at once (and cancels a streamed body later); a dropped connection rejects with
 * `TypeError: fetch failed`.
 */
export async function serveInProcess(
  handler: RequestHandler,
  options: MountOptions,
  request: Request,
  mount: MountKind = 'fetch',
  abortable = true,
): Promise<Response> {
  const signal = request.signal;
  if (signal.aborted) throw abortReason(signal);
  const surface = request.url.startsWith(options.mcpOrigin) ? 'mcp' : 'api';
  const reader = fetchRequestReader(request);
  const conn = new Connection(mount, surface, reader.header(CLIENT_ADDRESS_HEADER) ?? options.clientAddress, reader);
  const pending = handler(request, conn);
  // A request made without a signal cannot abort: no listener to add and remove.
  const answer = abortable ? await untilAborted(pending, signal) : await pending;
  if (answer.kind === 'dropped') throw fetchFailed();
  return answer.kind === 'stream' ? guardStreamedBody(replyResponse(answer), signal, conn) : replyResponse(answer);
}
