import { SseParser } from '../../core/streams/sseParser.js';
import { mediaType } from '../wire/wire.js';
import { parseYaml } from '../wire/yamlWire.js';

/** A side of a parity run: a base URL, the key it takes, and the `fetch` that reaches it. */
export interface ParityEndpoint {
  readonly url: string;
  readonly apiKey: string;
  readonly fetch: (request: Request) => Promise<Response>;
}

/** One request of a scenario. */
export interface ParityRequest {
  readonly method: string;
  /** The path with its parameters filled in (encoded). */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  /** Sent as JSON. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Send the side's key (default true). */
  readonly key?: boolean;
}

/** A server-sent event as read. */
export interface ReadEvent {
  readonly event: string;
  readonly data: string;
}

/** What came back. */
export interface ParityAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly contentType: string;
  readonly text: string;
  /** The body read as JSON or YAML (`undefined`: another wire, or unreadable). */
  readonly value: unknown;
  /** The events of an event stream. */
  readonly events: readonly ReadEvent[] | null;
}

/** The target or reference could not be reached. */
export class UnreachableError extends Error {
  override readonly name = 'UnreachableError';
}

/** How much of an answer is read: a longer (or endless) one is cut there. */
export const ANSWER_READ_BYTES = 4 * 1024 * 1024;
/** How long one request may take. */
export const REQUEST_TIMEOUT_MS = 30_000;

async function readBounded(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    text += decoder.decode(value, { stream: true });
    if (bytes >= ANSWER_READ_BYTES) {
      await reader.cancel();
      break;
    }
  }
  return text + decoder.decode();
}

/**
 * The events of an SSE body, read by the client's own parser (`src/core/streams/sseParser.ts`, the one reader of
 * server-sent events in the project): lines end with CR, LF or CRLF, comments are skipped, and an event the body
 * never closed with a blank line is dropped, as the client drops it (so a cut stream is not read as whole). The
 * body's leading BOM is the decoder's to strip, as in the client (`readBounded`'s `TextDecoder`).
 */
export function readEvents(text: string): ReadEvent[] {
  const out: ReadEvent[] = [];
  new SseParser({ onEvent: (event, data) => out.push({ event, data }) }).feed(text);
  return out;
}

function readValue(text: string, contentType: string): unknown {
  try {
    if (contentType === 'application/json') return text === '' ? undefined : JSON.parse(text);
    if (contentType === 'text/yaml' || contentType === 'application/yaml') return parseYaml(text, 'allow', 'The answer');
  } catch {
    return undefined;
  }
  return undefined;
}

/** Sends one request to a side. A failure to connect throws {@link UnreachableError}. */
export async function send(side: ParityEndpoint, request: ParityRequest): Promise<ParityAnswer> {
  const url = new URL(side.url.replace(/\/+$/, '') + request.path);
  for (const [k, v] of Object.entries(request.query ?? {})) url.searchParams.set(k, v);
  const headers = new Headers(request.headers);
  if (request.key !== false) headers.set('authorization', `Bearer ${side.apiKey}`);
  if (request.body !== undefined) headers.set('content-type', 'application/json');
  let response: Response;
  try {
    response = await side.fetch(
      new Request(url, {
        method: request.method,
        headers,
        body: request.body === undefined ? null : JSON.stringify(request.body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      }),
    );
  } catch (err) {
    throw new UnreachableError(
      `${side.url} could not be reached: ${(err as Error).message}${(err as { cause?: Error }).cause ? ` (${(err as { cause: Error }).cause.message})` : ''}`,
    );
  }
  const contentType = mediaType(response.headers.get('content-type'));
  const text = await readBounded(response);
  return {
    status: response.status,
    headers: response.headers,
    contentType,
    text,
    value: readValue(text, contentType),
    events: contentType === 'text/event-stream' ? readEvents(text) : null,
  };
}
