import { DROPPED, replyCopier, replyStatus, type RequestOutcome, type Reply } from '../wire/requestOutcome.js';
import type { Connection } from '../wire/connection.js';
import { preflightHeaders } from '../wire/cors.js';
import { OzMockError, toMockError } from '../contract/errors.js';
import { scriptedRetryAfter } from '../contract/scriptedRetryAfter.js';
import type { OperationInfo } from '../contract/operations.js';
import type { FaultRequestFacts, FaultSpec, Faults } from '../harness/faults.js';
import type { Chaos } from '../harness/chaos.js';
import { dribbleReply } from '../wire/dribble.js';
import { journalHeaders, keepBody, type Journal, type JournalEntry, type JournalHeaders } from '../harness/journal.js';
import type { RouteKind, ServerEvents } from '../harness/serverEvents.js';
import type { Coverage } from '../harness/coverage.js';
import { redactAdminTokens } from '../support/adminTokenText.js';
import { splitUrl } from '../support/requestUrl.js';
import { runKeySteps, runPipeline, type OperationHandler, type PipelineNeeds } from './pipeline.js';
import { RequestContext, type HandlerNeeds } from './requestContext.js';
import { bearerKey, storedKey } from './steps/authenticate.js';
import type { Stubs } from './stubs/stubs.js';

/**
 * What the dispatcher works with: the journal, the faults and the listeners around the pipeline, what the
 * pipeline's steps use, and what it hands a handler (the one plain object the composition root wires).
 */
export interface DispatchNeeds extends PipelineNeeds, HandlerNeeds {
  readonly journal: Journal;
  readonly faults: Faults;
  /** Rules that put a fault on a request at a rate, drawn from a seed (when no fault of `faults` took it). */
  readonly chaos: Chaos;
  readonly events: ServerEvents;
  /** Per-test answers: they answer in an operation's place. */
  readonly stubs: Stubs;
  /** What the run exercised of openapi.json, counted as each request's entry is final. */
  readonly coverage: Coverage;
  readonly options: PipelineNeeds['options'] & HandlerNeeds['options'] & { readonly maxBodyBytes: number };
}

/**
 * A journal entry; its `headers` are built only when a test reads them (over HTTP a copy of every header). An
 * admin token is redacted as the entry is recorded (path and query here, headers in `journalHeaders`, the body in
 * `keepBody`): every view of a request reads this record (the journal in process and over HTTP, its HAR, the live
 * feed, `--log`, a 404's message).
 */
class JournalRecord implements JournalEntry {
  readonly requestId: string;
  readonly operationId: string | null;
  readonly mount: Connection['mount'];
  readonly surface: Connection['surface'];
  readonly method: string;
  readonly path: string;
  readonly query: string;
  body: string | null = null;
  bodyLength: number | null = null;
  bodyTruncated = false;
  account: string | null = null;
  status: number | null = null;
  executionId: string | null = null;
  fault: JournalEntry['fault'] = null;
  chaos: JournalEntry['chaos'] = null;
  replayed = false;
  proxied: string | null = null;
  answeredBy: JournalEntry['answeredBy'] = null;
  readonly at: number;
  readonly #readHeaders: () => Headers;
  #headerCopy: JournalHeaders | null = null;

  constructor(request: Request, ctx: RequestContext, conn: Connection, at: number, target: RequestTarget) {
    this.requestId = ctx.requestId;
    this.operationId = ctx.op?.id ?? null;
    this.mount = conn.mount;
    this.surface = conn.surface;
    this.method = request.method;
    this.path = redactAdminTokens(target.path);
    this.query = redactAdminTokens(target.query);
    this.at = at;
    this.#readHeaders = conn.reader.headerSource();
  }

  get headers(): JournalHeaders {
    return (this.#headerCopy ??= journalHeaders(this.#readHeaders()));
  }
}

/** A request's path and query as sent. */
type RequestTarget = ReturnType<typeof splitUrl>;

function openEntry(parts: DispatchNeeds, ctx: RequestContext, conn: Connection, target = splitUrl(ctx.request.url)): JournalEntry {
  const entry = new JournalRecord(ctx.request, ctx, conn, parts.clock.now(), target);
  parts.journal.add(entry);
  return entry;
}

function emit(parts: DispatchNeeds, ctx: RequestContext, route: RouteKind, entry: JournalEntry, reply: Reply): void {
  if (parts.events.has('answered')) parts.events.emit('answered', () => entry);
  if (!parts.events.has('response')) return;
  const copy = replyCopier(reply);
  parts.events.emit('response', () => ({
    operationId: ctx.op?.id ?? null,
    route,
    surface: ctx.conn.surface,
    request: ctx.request,
    response: copy(),
    journal: entry,
  }));
}

function injectedError(fault: Extract<FaultSpec, { type: 'error' }>): OzMockError {
  const { missing, hint, contract, connect } = fault;
  const retryAfter = scriptedRetryAfter(fault.status, fault.retryAfter);
  return new OzMockError(fault.status, fault.code, fault.message ?? `Injected fault: ${fault.code}.`, {
    ...(missing ? { missing } : {}),
    ...(hint !== undefined ? { hint } : {}),
    ...(contract !== undefined ? { contract } : {}),
    ...(connect ? { connect } : {}),
    ...(retryAfter !== undefined ? { retryAfter } : {}),
  });
}

/** What a fault may match a request on: the account of its key, its JSON body (worked out on demand). */
function requestFacts(parts: DispatchNeeds, ctx: RequestContext): FaultRequestFacts {
  return {
    account: () => {
      const value = bearerKey(ctx.header('authorization') ?? '') ?? ctx.header('x-api-key')?.trim();
      return value ? (storedKey(parts.store.data, value)?.account ?? null) : null;
    },
    body: () => {
      try {
        return ctx.rawBody ? (JSON.parse(ctx.rawBody) as unknown) : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** The request's fault: the next of `server.faults` that matches, else what a chaos rule draws (noted in the entry). */
function takeFault(parts: DispatchNeeds, ctx: RequestContext, entry: JournalEntry): FaultSpec | null {
  const facts = requestFacts(parts, ctx);
  const fault = parts.faults.take(entry, facts);
  if (fault) return fault;
  const drawn = parts.chaos.draw(entry, facts);
  if (drawn === null) return null;
  entry.chaos = drawn.chaos;
  return drawn.fault;
}

/**
 * What a fault does before the request is handled: a drop, a delay (a request aborted meanwhile is dropped), an
 * error (thrown), a cut armed; the others act on the answer.
 */
async function faultBeforeHandling(parts: DispatchNeeds, ctx: RequestContext, entry: JournalEntry, fault: FaultSpec): Promise<'dropped' | 'go'> {
  entry.fault = fault.type;
  if (fault.type === 'drop') {
    ctx.conn.drop();
    return 'dropped';
  }
  if (fault.type === 'delay') {
    // Counted from the request's arrival, so a test's advance() right after the call covers it.
    await parts.clock.sleep(fault.ms - (parts.clock.now() - entry.at));
    if (ctx.request.signal.aborted) {
      ctx.conn.drop();
      return 'dropped';
    }
  }
  if (fault.type === 'error') throw injectedError(fault);
  if (fault.type === 'cut') ctx.cutAfter = fault.afterEvents;
  return 'go';
}

/** The error code an answer carries (`X-Error-Code`), or `null`. */
function answerCode(reply: Reply): string | null {
  if (reply.kind === 'response') return reply.response.headers.get('x-error-code');
  return (reply.kind === 'stream' ? reply.headers : reply.parts.headers)['x-error-code'] ?? null;
}

/**
 * Counts a request in the coverage, where its journal entry is final: its answer (status, code, streamed, what
 * gave it), or none (`null`: dropped). A fault (or a chaos rule's) that answered or took the answer away gave it;
 * a `delay` or a `dribble` leaves it to what answered.
 */
function countCoverage(parts: DispatchNeeds, ctx: RequestContext, entry: JournalEntry, reply: Reply | null, fault: FaultSpec | null): void {
  if (reply === null) return parts.coverage.record(ctx.op!.id, null);
  if (fault !== null && fault.type !== 'delay' && fault.type !== 'dribble') ctx.answeredBy = entry.chaos === null ? 'fault' : 'chaos';
  entry.answeredBy = ctx.answeredBy;
  parts.coverage.record(ctx.op!.id, { status: replyStatus(reply), code: answerCode(reply), streamed: ctx.streamed || reply.kind === 'stream', by: ctx.answeredBy });
}

/** Handles one request of an operation: journal, the key, faults, the pipeline and the handler (pipeline.ts), listeners. */
export async function dispatch(
  parts: DispatchNeeds,
  op: OperationInfo,
  handler: OperationHandler,
  request: Request,
  conn: Connection,
  params: Readonly<Record<string, string>>,
): Promise<RequestOutcome> {
  const ctx = new RequestContext(parts, op, request, conn, params);
  const target = splitUrl(request.url);
  const entry = openEntry(parts, ctx, conn, target);
  let fault: FaultSpec | null = null;
  let response: Reply;
  try {
    // The key first (the Host was checked before the request got here: see steps/hostCheck.ts): no byte of a
    // body is read, and no fault's pattern is run, for a request without a good key.
    runKeySteps(ctx, op, parts);
    if (op.body) {
      ctx.rawBody = await conn.reader.text(parts.options.maxBodyBytes);
      keepBody(entry, ctx.rawBody);
    }
    fault = takeFault(parts, ctx, entry);
    if (fault && (await faultBeforeHandling(parts, ctx, entry, fault)) === 'dropped') {
      countCoverage(parts, ctx, entry, null, fault);
      return DROPPED;
    }
    // Stubs answer in the handler's place: after authentication, validation and the wire's choice.
    const answerer: OperationHandler = parts.stubs.size === 0 ? handler : (c) => parts.stubs.answer(c, op, handler);
    // The path as sent (the entry's is redacted): a replay is keyed by what the caller asked for.
    response = await runPipeline(ctx, op, answerer, parts, target.path);
  } catch (err) {
    response = ctx.error(toMockError(err));
  }
  entry.account = ctx.principal?.account.name ?? (fault ? requestFacts(parts, ctx).account() : null);
  entry.status = replyStatus(response);
  entry.executionId = ctx.executionId;
  entry.replayed = ctx.replayed;
  entry.proxied = ctx.proxied;
  if (fault?.type === 'dribble') response = dribbleReply(response, fault.ms, parts.clock);
  countCoverage(parts, ctx, entry, response, fault);
  emit(parts, ctx, 'operation', entry, response);
  if (fault?.type === 'lose' || (fault?.type === 'cut' && !ctx.streamed)) {
    if (response.kind === 'response') void response.response.body?.cancel().catch(() => undefined);
    else if (response.kind === 'stream') response.stream.cancel();
    conn.drop();
    return DROPPED;
  }
  return response;
}

/** Answers a request that matched no operation: a CORS preflight, 405 on the MCP URL's GET, or 404. */
export async function answerUnrouted(parts: DispatchNeeds, route: Exclude<RouteKind, 'operation'>, request: Request, conn: Connection): Promise<RequestOutcome> {
  const ctx = new RequestContext(parts, null, request, conn, {});
  const entry = openEntry(parts, ctx, conn);
  let response: Reply;
  if (route === 'preflight') {
    response = ctx.buffered(204, { ...ctx.headers(null), ...preflightHeaders((name) => ctx.header(name)) }, null);
  } else if (route === 'method_not_allowed') {
    response = ctx.error(
      new OzMockError(405, 'method_not_allowed', 'This MCP server offers no server-initiated event stream: send JSON-RPC messages with POST.'),
      { allow: 'POST, OPTIONS' },
    );
  } else {
    response = ctx.error(new OzMockError(404, 'not_found', `No route for ${request.method} ${entry.path}.`));
  }
  entry.status = replyStatus(response);
  emit(parts, ctx, route, entry, response);
  return response;
}
