import type { CallSettings } from '../shared/call.js';
import { setHeader, type HeaderRecord } from '../shared/headerValue.js';
import { logOf } from '../shared/logger.js';
import type { Operation, RequestInput } from '../shared/operation.js';
import type { Format, RequestOptions } from '../shared/requestOptions.js';
import { nodeUserAgent } from '../shared/runtime.js';
import { WIRE_MEDIA_TYPES } from '../shared/wire.js';
import { warnDeprecatedUse } from '../telemetry/deprecation.js';
import { setAuth } from './auth.js';
import { callURL } from './callURL.js';
import { encodeJsonBody, encodeYamlBody } from './encodeRequestBody.js';
import { newIdempotencyKey } from './idempotencyKey.js';

/** What goes out on every attempt of a call: its wire, URL, headers and body bytes. */
export interface CallRequest {
  readonly format: Format;
  readonly url: string;
  readonly headers: HeaderRecord;
  readonly body: string | undefined;
}

/**
 * A call's request, built once from its operation, input and options with its settings and key: the URL, the
 * body as JSON (or YAML), the headers in order (User-Agent, the client's defaults, `Accept` of the wire, the
 * body's type, auth, the idempotency key of a write, the call's own headers); a deprecated operation or parameter
 * warned of. A mistake of the caller's is a `UsageProblem`.
 */
export async function callRequest(
  settings: CallSettings,
  op: Operation,
  input: RequestInput,
  options: RequestOptions,
  mode: 'parse' | 'stream',
  apiKey: string,
): Promise<CallRequest> {
  const wired = op.wire && mode === 'parse';
  const format: Format = wired ? (options.format ?? 'json') : 'json';
  const url = callURL(settings.baseURL, op, input, wired ? options.format : undefined, settings.defaultQuery, options.query);
  let body: string | undefined;
  let contentType: string | undefined;
  if (input.body !== undefined) {
    if (options.bodyFormat === 'yaml') {
      body = await encodeYamlBody(op, input.body);
      contentType = 'text/yaml';
    } else {
      body = encodeJsonBody(op, input.body);
      contentType = 'application/json';
    }
  }
  const headers: HeaderRecord = {};
  const userAgent = nodeUserAgent();
  if (userAgent) headers['user-agent'] = userAgent;
  if (settings.defaultHeaders !== undefined)
    for (const [name, value] of Object.entries(settings.defaultHeaders)) setHeader(headers, name, value, 'defaultHeaders');
  const accept = mode === 'stream' ? 'text/event-stream' : op.plane === 'mcp' ? 'application/json, text/event-stream' : WIRE_MEDIA_TYPES[format];
  if (mode === 'stream' || headers.accept === undefined) headers.accept = accept;
  if (contentType) headers['content-type'] = contentType;
  setAuth(headers, op, apiKey, settings.authHeader);
  // Every write carries an idempotency key, the same on every attempt: a retry of a lost answer is then a replay.
  if (options.idempotencyKey !== undefined) setHeader(headers, 'x-trace-id', options.idempotencyKey, 'idempotencyKey');
  else if (op.startsRun || op.method !== 'GET') headers['x-trace-id'] = newIdempotencyKey();
  if (options.headers !== undefined) {
    for (const [name, value] of Object.entries(options.headers)) setHeader(headers, name, value, 'headers');
  }
  // `format` wins over any Accept the caller set.
  if (wired && options.format) headers.accept = accept;
  if (op.deprecated || op.deprecatedParams) warnDeprecatedUse(op, input, new Headers(headers), logOf(settings.logging));
  return { format, url, headers, body };
}
