import { DROPPED, replyResponse, replyStatus, type Answer, type Reply } from './answer.js';
import { authenticate, bearerKey, checkTier, storedKey } from './auth.js';
import type { Connection } from './connection.js';
import { RequestContext } from './context.js';
import { preflightHeaders } from './cors.js';
import { OzMockError, toMockError } from './errors.js';
import type { FaultRequestFacts, FaultSpec } from './faults.js';
import { checkedTraceId, serveOnce } from './idempotency.js';
import { keepBody, type JournalEntry } from './journal.js';
import type { OperationInfo } from './operations.js';
import { takeRateLimit } from './rateLimit.js';
import { isPlainObject } from './plainObject.js';
import { parseRequestBody, requireObjectBody } from './requestBody.js';
import { validateRequest } from './requestValidation.js';
import { splitUrl } from './requestUrl.js';
import type { RouteKind, ServerCore } from './serverCore.js';

/** An operation's behaviour: it answers the request (or throws an `OzMockError`). */
export type OperationHandler = (ctx: RequestContext) => Reply | Promise<Reply>;

/** A journal entry; its `headers` are built only when a test reads them (over HTTP a copy of every header). */
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
  replayed = false;
  readonly at: number;
  readonly #readHeaders: () => Headers;
  #headerCopy: Headers | null = null;

  constructor(request: Request, ctx: RequestContext, conn: Connection) {
    const { path, query } = splitUrl(request.url);
    this.requestId = ctx.requestId;
    this.operationId = ctx.op?.id ?? null;
    this.mount = conn.mount;
    this.surface = conn.surface;
    this.method = request.method;
    this.path = path;
    this.query = query;
    this.at = ctx.core.clock.now();
    this.#readHeaders = conn.reader.headerSource();
  }

  get headers(): Headers {
    return (this.#headerCopy ??= this.#readHeaders());
  }
}

function openEntry(ctx: RequestContext, conn: Connection): JournalEntry {
  const entry = new JournalRecord(ctx.request, ctx, conn);
  ctx.core.journal.add(entry);
  return entry;
}

function emit(ctx: RequestContext, route: RouteKind, entry: JournalEntry, reply: Reply): void {
  if (ctx.core.observers.size === 0) return;
  const response = replyResponse(reply);
  for (const listener of ctx.core.observers) {
    listener({ operationId: ctx.op?.id ?? null, route, surface: ctx.conn.surface, request: ctx.request, response: response.clone(), journal: entry });
  }
}

function injectedError(fault: Extract<FaultSpec, { type: 'error' }>): OzMockError {
  const { missing, hint, contract, connect, retryAfter } = fault;
  return new OzMockError(fault.status, fault.code, fault.message ?? `Injected fault: ${fault.code}.`, {
    ...(missing ? { missing } : {}),
    ...(hint !== undefined ? { hint } : {}),
    ...(contract !== undefined ? { contract } : {}),
    ...(connect ? { connect } : {}),
    ...(retryAfter !== undefined ? { retryAfter } : {}),
  });
}

/** What a fault may match a request on: the account of its key, its JSON body (worked out on demand). */
function requestFacts(ctx: RequestContext): FaultRequestFacts {
  return {
    account: () => {
      const value = bearerKey(ctx.header('authorization') ?? '') ?? ctx.header('x-api-key')?.trim();
      return value ? (storedKey(ctx.core.store.data, value)?.account ?? null) : null;
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

/**
 * Rate limit, tier, trace id, body, its validation against openapi.json, and wire: what every operation goes
 * through after its key and faults and before its handler; a non-run write with a trace id is then served once
 * (see idempotency.ts).
 */
async function runOperation(ctx: RequestContext, op: OperationInfo, handler: OperationHandler, path: string): Promise<Reply> {
  const principal = ctx.principal;
  if (principal !== null) {
    ctx.rate = takeRateLimit(ctx, principal);
    checkTier(principal, op);
  }
  // Every write, MCP's included, checks its trace id.
  const traceId = op.method === 'GET' ? null : checkedTraceId(ctx.header('x-trace-id'));
  if (op.plane === 'mcp') {
    // JSON-RPC judges its own messages (a batch, a response, a bad id): the handler answers them.
    ctx.message = parseRequestBody(ctx.rawBody ?? '', ctx.contentType, true);
    if (isPlainObject(ctx.message)) ctx.body = ctx.message;
    return handler(ctx);
  }
  if (op.body) ctx.body = requireObjectBody(parseRequestBody(ctx.rawBody ?? '', ctx.contentType, !op.wire));
  validateRequest(ctx, op);
  // Execute routes that may stream decide in the handler: a stream ignores the wire choice.
  if (op.wire && op.streaming === 'none') ctx.negotiate();
  if (traceId === null || !op.replay || ctx.principal === null) return handler(ctx);
  return serveOnce(ctx, traceId, path, () => handler(ctx));
}

/** Handles one request of an operation: journal, faults, the operation, observers. */
export async function dispatch(
  core: ServerCore,
  op: OperationInfo,
  handler: OperationHandler,
  request: Request,
  conn: Connection,
  params: Readonly<Record<string, string>>,
): Promise<Answer> {
  const ctx = new RequestContext(core, op, request, conn, params);
  const entry = openEntry(ctx, conn);
  let fault: FaultSpec | null = null;
  let response: Reply;
  try {
    // The key first (the Host was checked before the request got here: see loopbackHost.ts): no byte of a
    // body is read, and no fault's pattern is run, for a request without a good key.
    if (op.auth !== 'none') ctx.principal = authenticate(ctx, op);
    if (op.body) {
      ctx.rawBody = await conn.reader.text(core.options.maxBodyBytes);
      keepBody(entry, ctx.rawBody);
    }
    fault = core.faults.take(entry, requestFacts(ctx));
    if (fault) {
      entry.fault = fault.type;
      if (fault.type === 'drop') {
        conn.drop();
        return DROPPED;
      }
      if (fault.type === 'delay') {
        // Counted from the request's arrival, so a test's advance() right after the call covers it.
        await core.clock.sleep(fault.ms - (core.clock.now() - entry.at));
        if (request.signal.aborted) {
          conn.drop();
          return DROPPED;
        }
      }
      if (fault.type === 'error') throw injectedError(fault);
      if (fault.type === 'cut') ctx.cutAfter = fault.afterEvents;
    }
    // Stubs answer in the handler's place: after authentication, validation and the wire's choice.
    const answerer: OperationHandler = core.stubs.size === 0 ? handler : (c) => core.stubs.answer(c, op, handler);
    response = await runOperation(ctx, op, answerer, entry.path);
  } catch (err) {
    response = ctx.error(toMockError(err));
  }
  entry.account = ctx.principal?.account.name ?? (fault ? requestFacts(ctx).account() : null);
  entry.status = replyStatus(response);
  entry.executionId = ctx.executionId;
  entry.replayed = ctx.replayed;
  emit(ctx, 'operation', entry, response);
  if (fault?.type === 'lose' || (fault?.type === 'cut' && !ctx.streamed)) {
    if (response.kind === 'response') void response.response.body?.cancel().catch(() => undefined);
    conn.drop();
    return DROPPED;
  }
  return response;
}

/** Answers a request that matched no operation: a CORS preflight, 405 on the MCP URL's GET, or 404. */
export async function answerUnrouted(core: ServerCore, route: Exclude<RouteKind, 'operation'>, request: Request, conn: Connection): Promise<Answer> {
  const ctx = new RequestContext(core, null, request, conn, {});
  const entry = openEntry(ctx, conn);
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
  emit(ctx, route, entry, response);
  return response;
}
