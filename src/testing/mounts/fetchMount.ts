import { replyResponse } from '../wire/answer.js';
import type { RequestHandler } from '../pipeline/routing.js';
import { Connection, fetchRequestReader, type MountKind } from '../wire/connection.js';
import type { ResolvedOptions } from '../public/options.js';
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

/** The answer, or a rejection with the abort reason as soon as the signal aborts. */
function untilAborted<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (r) => {
        signal.removeEventListener('abort', onAbort);
        resolve(r);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/**
 * Serves one request in process, as `fetch` would over a socket: `{mcp_url}`'s origin reaches the MCP
 * server; an abort rejects at once (and cancels a streamed body later); a dropped connection rejects with
 * `TypeError: fetch failed`.
 */
export async function serveInProcess(
  handler: RequestHandler,
  options: ResolvedOptions,
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
  return guardStreamedBody(replyResponse(answer), signal, conn);
}
