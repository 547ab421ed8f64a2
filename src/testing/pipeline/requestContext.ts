import type { ChatReply } from './stubs/chatScript.js';
import type { CoverageAnswerer } from '../harness/coverage.js';
import type { ErrorObject, Format } from '../../generated/types.js';
import { PERMANENT_ERROR_CODES } from '../contract/permanentCodes.js';
import { responseReply, type Reply } from '../wire/requestOutcome.js';
import type { Connection } from '../wire/connection.js';
import { EXPOSED_HEADERS } from '../wire/cors.js';
import { INVALID_FORMAT_MESSAGE, OzMockError, stateReset } from '../contract/errors.js';
import type { KeptAnswer } from '../state/idempotencyStore.js';
import { newId } from '../support/ids.js';
import type { OperationInfo } from '../contract/operations.js';
import { renderPayload, type Payload } from '../wire/render.js';
import { SseStream } from '../wire/sseStream.js';
import type { ItemWalker } from '../runs/itemWalker.js';
import type { Runner } from '../runs/runner.js';
import type { Scheduler } from '../runs/scheduler.js';
import type { Store } from '../state/store.js';
import type { ServerClock } from '../time/clock.js';
import type { StateLifetime } from '../time/stateLifetime.js';
import type { Timing } from '../time/timing.js';
import type { WorkTracker } from '../time/workTracker.js';
import type { AccountRecord, KeyRecord } from '../state/state.js';
import { isWire, negotiateWire, WIRE_CONTENT_TYPES } from '../wire/wire.js';
import { rawBodyFormat } from '../wire/bodyFormat.js';

/**
 * What a request's handler needs of its server's parts (`ctx.parts`): the state, the clock, the runs and the pace.
 * The journal, the faults, the kept answers and the listeners are the chain's (`ChainNeeds`, exchange.ts), not a handler's.
 */
export interface HandlerNeeds {
  readonly clock: ServerClock;
  readonly store: Store;
  readonly runner: Runner;
  readonly walker: ItemWalker;
  readonly scheduler: Scheduler;
  readonly work: WorkTracker;
  /** The state's lifetime: an open event stream ends with an `error` event (`reset`) when it ends. */
  readonly lifetime: StateLifetime;
  readonly options: { readonly timing: Timing; readonly syncTimeoutMs: number; readonly maxBodyBytes?: number };
}

/** The authenticated caller of a request. */
export interface Principal {
  readonly account: AccountRecord;
  readonly key: KeyRecord;
}

/** The rate-limit state a keyed answer reports. */
export interface RateState {
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window resets. */
  readonly reset: number;
}

const EMPTY_BODY: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** One request on its way through the server: who asked, what was sent, and how to answer. */
export class RequestContext {
  principal: Principal | null = null;
  rate: RateState | null = null;
  /** A write's checked `x-trace-id` (the idempotency key), or `null`. */
  traceId: string | null = null;
  /** The request body as sent (`null` when none was read). */
  rawBody: string | null = null;
  /** The parsed body (an empty object when there was none). */
  body: Record<string, unknown> = EMPTY_BODY;
  /** The MCP surface's parsed message, whatever its JSON type (a batch is an array). */
  message: unknown = undefined;
  /** The negotiated wire; final once {@link RequestContext.negotiate} ran. */
  wire: Format | null = null;
  /** Set when the answer belongs to an execution (sent as `X-Execution-Id`). */
  executionId: string | null = null;
  /** Whether the request created the execution (the markdown error footer names it then). */
  createdExecution = false;
  /** A `cut` fault: the stream is cut after this many events. */
  cutAfter: number | undefined = undefined;
  /** Whether the answer is an event stream. */
  streamed = false;
  /** The answer before its wire (see {@link RequestContext.reply}, {@link RequestContext.json}): what a replay renders again. */
  answered: KeptAnswer | null = null;
  /** Whether the answer is the replay of a kept answer (`x-idempotent-replayed: true`). */
  replayed = false;
  /** A chat completion's reply scripted by a stub (`answer.reply`): the models plane renders it as its own. */
  scriptedReply: ChatReply | null = null;
  /** A proxy stub's target (its origin and path, never a key): the request was sent on there. */
  proxied: string | null = null;
  /**
   * What answers in the handler's place, as the coverage counts it: a stub sets `stub`, a chaos rule `chaos` (a
   * fault's is the coverage step's to say: see `pipeline/steps/coverage.ts`).
   */
  answeredBy: CoverageAnswerer = 'handler';
  #searchParams: URLSearchParams | null = null;
  /** The request's Content-Type (read once). */
  readonly contentType: string | null;

  constructor(
    readonly parts: HandlerNeeds,
    readonly op: OperationInfo | null,
    readonly request: Request,
    readonly conn: Connection,
    readonly params: Readonly<Record<string, string>>,
    /** The request's id (`x-request-id`): the chain's first step gives every request one. */
    readonly requestId: string = newId('req'),
  ) {
    this.contentType = conn.reader.header('content-type');
  }

  /** A request header's value, or `null`. */
  header(name: string): string | null {
    return this.conn.reader.header(name);
  }

  /** The caller (after authentication). */
  get principalOrThrow(): Principal {
    if (!this.principal) throw new Error('unauthenticated request');
    return this.principal;
  }

  /** The caller's account. */
  get account(): AccountRecord {
    return this.principalOrThrow.account;
  }

  /** A query parameter (the first value), or `undefined`. */
  query(name: string): string | undefined {
    if (!this.#searchParams) {
      const url = this.request.url;
      const q = url.indexOf('?');
      if (q < 0) return undefined;
      this.#searchParams = new URLSearchParams(url.slice(q + 1));
    }
    return this.#searchParams.get(name) ?? undefined;
  }

  /**
   * Rules 1 to 3 of wire selection: the body's `format`, else `?format=`, else `Accept`, else the Content-Type.
   * An explicit format that is not a wire, in the body or the query, answers 400 `invalid_format`, even when the
   * other one is valid.
   */
  negotiate(): Format {
    if (this.wire) return this.wire;
    const bodyFormat = this.body.format;
    const queryFormat = this.query('format');
    for (const explicit of [bodyFormat, queryFormat]) {
      if (explicit !== undefined && !isWire(explicit)) throw new OzMockError(400, 'invalid_format', INVALID_FORMAT_MESSAGE);
    }
    this.wire = negotiateWire((bodyFormat ?? queryFormat) as Format | undefined, this.header('accept'), this.contentType);
    return this.wire;
  }

  /**
   * The wire an error goes out on: JSON off the wire planes and for `invalid_format`; else as negotiated, or as
   * it would be (an error before negotiation: the body's `format` read from its bytes when the body step has not
   * parsed it yet, as for an error fault). An explicit format that is not a wire is passed over.
   */
  #errorWire(code: string): Format {
    if (!this.op?.wire || code === 'invalid_format') return 'json';
    if (this.wire) return this.wire;
    const q = this.query('format');
    const b = this.body === EMPTY_BODY ? rawBodyFormat(this.rawBody, this.contentType) : this.body.format;
    const explicit = isWire(b) ? b : b === undefined && isWire(q) ? q : undefined;
    return negotiateWire(explicit, this.header('accept'), this.contentType);
  }

  /** The headers every answer carries, plus the content type. */
  headers(contentType: string | null): Record<string, string> {
    const h: Record<string, string> = { 'x-request-id': this.requestId };
    if (contentType) h['content-type'] = contentType;
    if (this.rate) {
      h['x-ratelimit-limit'] = String(this.rate.limit);
      h['x-ratelimit-remaining'] = String(this.rate.remaining);
      h['x-ratelimit-reset'] = String(this.rate.reset);
    }
    if (this.executionId) h['x-execution-id'] = this.executionId;
    if (this.header('origin') !== null) {
      h['access-control-allow-origin'] = '*';
      h['access-control-expose-headers'] = EXPOSED_HEADERS;
    }
    return h;
  }

  /** A payload on the negotiated wire. */
  reply(status: number, payload: Payload, extra?: Record<string, string>): Reply {
    this.answered = { kind: 'payload', status, payload };
    const wire = this.wire ?? this.negotiate();
    const headers = this.headers(WIRE_CONTENT_TYPES[wire]);
    if (extra) Object.assign(headers, extra);
    return this.buffered(status, headers, renderPayload(payload, wire));
  }

  /**
   * A buffered answer. Over HTTP it stays parts the mount writes to the socket (a `Response` is built from them
   * only for observers); in process and through msw it is a `Response`.
   */
  buffered(status: number, headers: Record<string, string>, body: string | null): Reply {
    if (this.conn.mount === 'http') return { kind: 'written', parts: { status, headers, body } };
    return responseReply(new Response(body, { status, headers }));
  }

  /** A JSON answer (models plane, meta, MCP, proxy). */
  json(status: number, value: unknown, extra?: Record<string, string>): Reply {
    this.answered = { kind: 'json', status, value };
    const headers = this.headers('application/json');
    if (extra) Object.assign(headers, extra);
    return this.buffered(status, headers, JSON.stringify(value));
  }

  /** An answer without a body. */
  empty(status: number): Reply {
    return this.buffered(status, this.headers(null), null);
  }

  /** A new event stream for this request (it honours a `cut` fault, `cutAfter` if sooner, and the request's abort). */
  openStream(cutAfter?: number): SseStream {
    // Over HTTP the socket's sink sees a client gone: no `AbortController` is made for the request's signal.
    return new SseStream(this.conn.mount === 'http' ? null : this.request.signal, {
      clock: this.parts.clock,
      pingMs: this.parts.options.timing.pingMs,
      cutAfter: cutAfter === undefined || (this.cutAfter !== undefined && this.cutAfter < cutAfter) ? this.cutAfter : cutAfter,
      onCut: () => this.conn.cut(),
      lifetime: { onEnd: (listener) => this.parts.lifetime.onEnd(listener), resetData: () => JSON.stringify({ error: this.errorObject(stateReset()) }) },
    });
  }

  /** The answer of an event stream. */
  stream(stream: SseStream): Reply {
    this.streamed = true;
    const headers = this.headers('text/event-stream; charset=utf-8');
    headers['cache-control'] = 'no-cache';
    return { kind: 'stream', status: 200, headers, stream };
  }

  /** The error object of an envelope: with the execution this request created, and OpenAI's fields on the models plane. */
  errorObject(err: OzMockError): ErrorObject {
    const object = err.toObject() as ErrorObject;
    if (this.executionId && this.createdExecution) object.execution_id = this.executionId;
    if (this.op?.plane === 'models') {
      object.type ??= openAiType(err.status);
      if (!('param' in object)) object.param = null;
    }
    return object;
  }

  /** An error envelope on the error's wire, with `X-Error-Code` (and OpenAI's `type` on the models plane). */
  error(err: OzMockError, extra?: Record<string, string>): Reply {
    const object = this.errorObject(err);
    const wire = this.#errorWire(err.code);
    const headers = this.headers(WIRE_CONTENT_TYPES[wire]);
    headers['x-error-code'] = err.code;
    if (PERMANENT_ERROR_CODES.has(err.code)) headers['x-should-retry'] = 'false';
    if (err.fields.retryAfter !== undefined) headers['retry-after'] = String(err.fields.retryAfter);
    if (extra) Object.assign(headers, extra);
    const payload: Payload = { kind: 'error', value: object, executionId: this.createdExecution ? this.executionId : null };
    return this.buffered(err.status, headers, renderPayload(payload, wire));
  }
}

function openAiType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}
