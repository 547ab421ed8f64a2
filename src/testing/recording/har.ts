import type { RecordedEvent } from './eventTimeline.js';
import { API_VERSION } from '../contract/operations.js';
import { isoTime } from '../support/isoTime.js';
import { redactHeaders, redactText } from './redaction.js';

/** A header or query parameter of a HAR entry. */
export interface HarPair {
  readonly name: string;
  readonly value: string;
}

/** A request body as HAR 1.2 records it. */
export interface HarPostData {
  readonly mimeType: string;
  readonly text: string;
  readonly comment?: string;
}

/** The request of a HAR entry. */
export interface HarRequest {
  readonly method: string;
  readonly url: string;
  readonly httpVersion: string;
  readonly cookies: readonly [];
  readonly headers: readonly HarPair[];
  readonly queryString: readonly HarPair[];
  readonly postData?: HarPostData;
  readonly headersSize: -1;
  /** The whole body's length in bytes (`-1`: unknown, `0`: none). */
  readonly bodySize: number;
}

/** The answer's body as HAR 1.2 records it. */
export interface HarContent {
  /** The whole body's length in bytes (`text` may hold only its first part: see `comment`). */
  readonly size: number;
  readonly mimeType: string;
  readonly text?: string;
  readonly comment?: string;
}

/** The response of a HAR entry (`status` 0: no answer came). */
export interface HarResponse {
  readonly status: number;
  readonly statusText: string;
  readonly httpVersion: string;
  readonly cookies: readonly [];
  readonly headers: readonly HarPair[];
  readonly content: HarContent;
  readonly redirectURL: '';
  readonly headersSize: -1;
  readonly bodySize: number;
  readonly comment?: string;
  /** Of a streamed answer recorded whole: its events with the wait before each (a HAR custom field). */
  readonly _events?: readonly RecordedEvent[];
}

/** One exchange of a HAR 1.2 log; `_operationId` is the operation of openapi.json it matched (`null`: none). */
export interface HarEntry {
  readonly startedDateTime: string;
  readonly time: number;
  readonly request: HarRequest;
  readonly response: HarResponse;
  readonly cache: Record<string, never>;
  readonly timings: { readonly send: number; readonly wait: number; readonly receive: number };
  readonly _operationId: string | null;
  readonly comment?: string;
}

/** A HAR 1.2 document (open it in a browser's network panel or any HAR viewer). */
export interface Har {
  readonly log: {
    readonly version: '1.2';
    readonly creator: { readonly name: string; readonly version: string };
    readonly entries: readonly HarEntry[];
    readonly comment?: string;
  };
}

/** A body as it was seen: its kept text, the whole length, and whether `text` is only the first part. */
export interface SeenBody {
  readonly text: string;
  readonly size: number;
  readonly truncated: boolean;
}

/** One exchange, before redaction. */
export interface Exchange {
  /** When the request arrived (ms since the epoch). */
  readonly startedAt: number;
  readonly durationMs: number;
  readonly method: string;
  /** The absolute URL. */
  readonly url: string;
  readonly requestHeaders: Iterable<readonly [string, string]>;
  readonly requestBody: SeenBody | null;
  /** 0 when no answer came. */
  readonly status: number;
  readonly statusText: string;
  readonly responseHeaders: Iterable<readonly [string, string]>;
  /** `null`: nothing of the answer is known. */
  readonly responseBody: SeenBody | null;
  readonly operationId: string | null;
  readonly comment?: string;
  /** Of a streamed answer: its events as they came, when the recording kept them all. */
  readonly events?: readonly RecordedEvent[];
}

/** The program that wrote a HAR log. */
export const HAR_CREATOR = { name: 'oz-mock', version: API_VERSION } as const;

const cut = (body: SeenBody) => (body.truncated ? `only the first ${utf8Size(body.text)} of ${body.size} bytes are recorded` : undefined);
const ENCODER = new TextEncoder();
const utf8Size = (text: string) => ENCODER.encode(text).length;

function contentType(headers: readonly HarPair[]): string {
  return headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '';
}

/** An exchange as a HAR entry: every credential header reads `<redacted>`, every secret value is scrubbed from URL and bodies. */
export function harEntry(exchange: Exchange, secrets: readonly string[]): HarEntry {
  const url = redactText(exchange.url, secrets);
  const requestHeaders = redactHeaders(exchange.requestHeaders, secrets);
  const responseHeaders = redactHeaders(exchange.responseHeaders, secrets);
  const query = URL.canParse(url) ? new URL(url).searchParams : new URLSearchParams();
  const request: HarRequest = {
    method: exchange.method,
    url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: requestHeaders,
    queryString: [...query].map(([name, value]) => ({ name, value })),
    ...(exchange.requestBody && exchange.requestBody.size > 0
      ? {
          postData: {
            mimeType: contentType(requestHeaders),
            text: redactText(exchange.requestBody.text, secrets),
            ...(cut(exchange.requestBody) ? { comment: cut(exchange.requestBody) } : {}),
          },
        }
      : {}),
    headersSize: -1,
    bodySize: exchange.requestBody?.size ?? 0,
  };
  const body = exchange.responseBody;
  const response: HarResponse = {
    status: exchange.status,
    statusText: exchange.statusText,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: responseHeaders,
    content: body
      ? { size: body.size, mimeType: contentType(responseHeaders), text: redactText(body.text, secrets), ...(cut(body) ? { comment: cut(body) } : {}) }
      : { size: 0, mimeType: contentType(responseHeaders), comment: 'the answer was not recorded' },
    redirectURL: '',
    headersSize: -1,
    bodySize: body?.size ?? -1,
    ...(exchange.events ? { _events: exchange.events.map((e) => ({ ...e, data: redactText(e.data, secrets) })) } : {}),
  };
  return {
    startedDateTime: isoTime(exchange.startedAt),
    time: Math.max(0, exchange.durationMs),
    request,
    response,
    cache: {},
    timings: { send: 0, wait: Math.max(0, exchange.durationMs), receive: 0 },
    _operationId: exchange.operationId,
    ...(exchange.comment !== undefined ? { comment: exchange.comment } : {}),
  };
}

/** A HAR 1.2 document of entries. */
export function harDocument(entries: readonly HarEntry[], comment?: string): Har {
  return { log: { version: '1.2', creator: HAR_CREATOR, entries, ...(comment !== undefined ? { comment } : {}) } };
}
