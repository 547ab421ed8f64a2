import type { OperationId } from '../../../generated/operations.js';
import type { TypedOperationStub, UncheckedOperationStub } from './operationStub.js';
import type { Reply, RequestOutcome } from '../../wire/requestOutcome.js';
import type { RequestContext } from '../requestContext.js';
import { OzMockError } from '../../contract/errors.js';
import { checkNesting } from '../../contract/nesting.js';
import { checkAnswerHeaders } from '../../contract/answerHeaders.js';
import { jsonSubset } from '../../support/jsonSubset.js';
import { serverOperationNamed, type OperationInfo } from '../../contract/operations.js';
import { isPlainObject } from '../../support/plainObject.js';
import type { Payload } from '../../wire/render.js';
import { checkScopeOperationId } from '../../harness/requestScope.js';
import { PERMANENT_ERROR_CODES } from '../../contract/permanentCodes.js';
import { withScriptedRetryAfter } from '../../contract/scriptedRetryAfter.js';
import { checkStubAnswer, responseShape, type ResponseShape } from './stubAnswerCheck.js';
import { checkEventsShape, checkStubEvents, playEvents, requestStreams, type StubCut, type StubEvent } from './stubEvents.js';
import { checkProxyAnswer, isProxyAnswer, listedProxyAnswer, proxyReply, type ProxyAnswer } from './proxyAnswer.js';
import { checkMatchPath } from './matchPath.js';
import { checkTextShape, checkTextStatus, textReply } from './stubText.js';
import { checkChatReply, lastUserMessageTest, lastUserText, type ChatReply, type LastUserMessageMatch } from './chatScript.js';

export type { StubCut, StubEvent } from './stubEvents.js';
export type { ChatReply, LastUserMessageMatch, ScriptedToolCall } from './chatScript.js';
export type { ProxyAnswer } from './proxyAnswer.js';

/** A fixed answer of a stub: one the server renders, or one a service gives (`{ proxy }`). */
export type AnyStubAnswer = StubAnswer | ProxyAnswer;

/** What a stub answers: a status, a body (an object as the JSON wire shows it) or a stream's events, and extra headers. */
export interface StubAnswer {
  /** The status (a `reply` answers 200 and may leave it out). */
  readonly status: number;
  /** The body as on the JSON wire (an error status: `{ "error": { "code", "message" } }`). None for a 204. */
  readonly body?: unknown;
  /**
   * Of an operation that streams, instead of `body`: the events of a 200 stream, sent in order on the server's
   * clock (each checked against openapi.json's event schema unless `unchecked`). Such a stub answers only the
   * requests that stream (`stream: true`, or an operation that always streams). A chat completion stream's
   * events are chunks (`data` only); `data: [DONE]` follows the last.
   */
  readonly events?: readonly StubEvent[];
  /** With `events`: drop the connection after this many events (as a `cut` fault does). */
  readonly cut?: StubCut;
  /**
   * Of a chat completion, instead of `body` or `events`: the assistant's reply (`{ content }` or `{ toolCalls }`),
   * rendered by the models plane as a completion or, when the request streams, as its chunks.
   */
  readonly reply?: ChatReply;
  /**
   * Instead of `body`: text sent as it is (bytes and `contentType` as they came), whatever wire the request
   * negotiated: how `oz-mock record` replays a markdown or text answer.
   */
  readonly text?: string;
  /** With `text`: its content type, `text/markdown` or `text/plain` (with its charset). */
  readonly contentType?: string;
  /** Headers added to the answer (`retry-after`, ...). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Which requests of the operation a stub answers: every given field must match; none given matches all. */
export interface StubMatch {
  /** Path parameters, by name (`{ campus: 'acme', id: 'itm_1' }`). */
  readonly path?: Readonly<Record<string, string>>;
  /** Query parameters that must have these values. */
  readonly query?: Readonly<Record<string, string>>;
  /** Fields the JSON body must hold (a subset, compared deeply). */
  readonly body?: Readonly<Record<string, unknown>>;
  /** The account whose key sent the request. */
  readonly account?: string;
  /** Of a chat completion: the text of the conversation's last user message contains a string or matches a pattern. */
  readonly lastUserMessage?: LastUserMessageMatch;
}

/** A request as a stub's `respond` sees it: parsed, after authentication and validation. */
export interface StubRequest {
  readonly operationId: OperationId;
  /** Path parameters, by name. */
  readonly path: Readonly<Record<string, string>>;
  /** Query parameters (the first value of each). */
  readonly query: Readonly<Record<string, string>>;
  /** The parsed JSON body (an empty object for an operation without one). */
  readonly body: Readonly<Record<string, unknown>>;
  /** The account of the request's key, or `null` on an operation without a key. */
  readonly account: string | null;
  readonly headers: Headers;
}

/**
 * A per-test answer for an operation, typed by openapi.json: the typed stub of any operation, told apart by its
 * `operationId` (see {@link OperationStub}). {@link OzStubs.add} takes it, and an {@link UncheckedOperationStub}.
 */
export type StubSpec = TypedOperationStub;

/**
 * A stub as data, checked at run time rather than by its types (a stubs file, the control plane, a server
 * option): the fields every {@link StubSpec} has, loosely typed.
 */
export interface StubData {
  /** The operation of openapi.json it answers (an unknown one throws a `TypeError`). */
  readonly operationId: OperationId;
  readonly match?: StubMatch;
  /**
   * A fixed answer (checked against openapi.json when added), or `{ proxy }` to send the request on to another
   * service. Give one of `answer`, `answers` or `respond`.
   */
  readonly answer?: AnyStubAnswer;
  /**
   * A sequence of answers (each checked as `answer` is): the n-th request the stub matches gets the n-th answer;
   * after the last, `then` says what happens.
   */
  readonly answers?: readonly AnyStubAnswer[];
  /**
   * After the last of `answers`: `'repeat'` (the default) gives the last answer again; `'fallthrough'` withdraws
   * the stub, so later requests reach older stubs and the server's own behaviour.
   */
  readonly then?: StubThen;
  /**
   * An answer worked out per request (checked against openapi.json before it is sent: a misfit answers 500
   * `internal_error` naming the field). Return nothing to let the server's own behaviour answer.
   */
  readonly respond?: (request: StubRequest) => StubAnswer | undefined | void | Promise<StubAnswer | undefined | void>;
  /** How many answers it gives; default: every matching request until reset (or until withdrawn). */
  readonly times?: number;
  /** Send the answer even when openapi.json does not allow it (a test of a client's defences). */
  readonly unchecked?: boolean;
}

/** What a sequence of answers does after its last answer: see {@link StubData.then}. */
export type StubThen = 'repeat' | 'fallthrough';

/** A stub that was added. */
export interface StubHandle {
  /** The stub's id (`stb_...`), as `GET /_oz/stubs` lists it. */
  readonly id: string;
  /** How many requests it matched so far. */
  readonly hits: number;
  /** How many answers it still gives (`null`: until reset). */
  readonly remaining: number | null;
  /** Withdraws it. */
  cancel(): void;
}

/** A stub as listed (the JSON form `GET /_oz/stubs` answers). */
export interface StubView {
  readonly id: string;
  readonly operationId: OperationId;
  readonly match: StubMatch;
  /**
   * The fixed answer (of a sequence: the one the next matching request gets), or `"(function)"` for `respond`. A
   * proxy answer's `proxyApiKey` is listed cut to its prefix (`ozk_…`).
   */
  readonly answer: AnyStubAnswer | '(function)';
  /** A sequence's answers, in order (`null` for a single answer or a function). */
  readonly answers: readonly AnyStubAnswer[] | null;
  /** Of a sequence: the index in `answers` of the answer the next matching request gets (`null` otherwise). */
  readonly position: number | null;
  /** Of a sequence: what follows its last answer (`null` otherwise). */
  readonly then: StubThen | null;
  readonly times: number | null;
  readonly remaining: number | null;
  readonly hits: number;
  readonly unchecked: boolean;
}

/** Per-test answers for any operation. */
export interface OzStubs {
  /**
   * Answers the operation's matching requests with `answer` (or what `respond` returns) instead of the
   * server's behaviour, after authentication and request validation: for `times` requests, or until reset.
   * The newest stub that matches answers. A bad stub throws a `TypeError`; an answer openapi.json does not
   * allow for the operation throws 422 `invalid_params` naming the field (`answer.body.status`).
   */
  add(stub: StubSpec): StubHandle;
  /** An unchecked stub (`unchecked: true`): any status, body or events, to test a client's defences. */
  add(stub: UncheckedOperationStub): StubHandle;
  /** The stubs still armed, with their hits. */
  list(): StubView[];
  /** Withdraws one stub; answers whether it was armed. */
  cancel(id: string): boolean;
  /** Withdraws every stub. */
  clear(): void;
}

interface ArmedStub {
  readonly id: string;
  readonly op: OperationInfo;
  readonly spec: StubData;
  /** The fixed answers (one, a sequence, or none for `respond`), each with the response shape it was checked against. */
  readonly fixed: ReadonlyArray<{ readonly answer: AnyStubAnswer; readonly shape: ResponseShape | null }>;
  /** `match.lastUserMessage` made a test of the last user message's text. */
  readonly lastUser: ((text: string) => boolean) | null;
  remaining: number | null;
  hits: number;
}

const STUB_FIELDS = ['operationId', 'match', 'answer', 'answers', 'then', 'respond', 'times', 'unchecked'];
const THEN_VALUES: readonly StubThen[] = ['repeat', 'fallthrough'];
const MATCH_FIELDS = ['path', 'query', 'body', 'account', 'lastUserMessage'];
const ANSWER_FIELDS = ['status', 'body', 'events', 'cut', 'headers', 'reply', 'text', 'contentType'];

function stringRecord(value: unknown, name: string): void {
  if (value === undefined) return;
  if (!isPlainObject(value) || !Object.values(value).every((v) => typeof v === 'string')) throw new TypeError(`${name} must be an object of strings`);
}

function checkAnswerShape(answer: unknown, op: OperationInfo, at = 'answer'): asserts answer is AnyStubAnswer {
  if (!isPlainObject(answer)) throw new TypeError('answer must be an object: { status, body, headers }');
  if (isProxyAnswer(answer)) return checkProxyAnswer(answer, at);
  for (const k of Object.keys(answer)) if (!ANSWER_FIELDS.includes(k)) throw new TypeError(`answer.${k} is not a field (known: ${ANSWER_FIELDS.join(', ')})`);
  if (answer.reply !== undefined) {
    checkChatReply(answer.reply, 'answer', op);
    if (answer.status !== undefined && answer.status !== 200) throw new TypeError('answer.status of a reply is 200 (or left out)');
    if (answer.body !== undefined || answer.events !== undefined || answer.cut !== undefined)
      throw new TypeError('Give answer.reply alone: the models plane renders it (no body, events or cut)');
    stringRecord(answer.headers, 'answer.headers');
    checkAnswerHeaders(answer.headers as Record<string, string> | undefined, 'answer.headers');
    return;
  }
  if (!(Number.isInteger(answer.status) && (answer.status as number) >= 200 && (answer.status as number) <= 599))
    throw new TypeError('answer.status must be an HTTP status from 200 to 599');
  stringRecord(answer.headers, 'answer.headers');
  checkAnswerHeaders(answer.headers as Record<string, string> | undefined, 'answer.headers');
  if (answer.text !== undefined || answer.contentType !== undefined) return checkTextShape(answer, at);
  if (answer.events === undefined) {
    if (answer.cut !== undefined) throw new TypeError('answer.cut goes with answer.events');
    return;
  }
  if (answer.body !== undefined) throw new TypeError('Give answer.body or answer.events, not both');
  checkEventsShape(answer.events, answer.cut, 'answer');
}

/** An answer checked against openapi.json (unless unchecked) under the name `at`: its body's shape, or none for events. */
function checkedShape(op: OperationInfo, answer: AnyStubAnswer, at: string, unchecked: boolean): ResponseShape | null {
  if (isProxyAnswer(answer) || answer.reply) return null;
  if (answer.text !== undefined) {
    checkTextStatus(op, answer.status, at, unchecked);
    return null;
  }
  if (answer.events) {
    checkStubEvents(op, answer.status, answer.events, at, unchecked);
    return null;
  }
  return unchecked ? responseShape(op, answer.status, at) : checkStubAnswer(op, answer.status, answer.body, at);
}

function checkSequence(answers: unknown, op: OperationInfo): asserts answers is AnyStubAnswer[] {
  if (!Array.isArray(answers) || answers.length === 0) throw new TypeError('answers must be a non-empty array of answers');
  answers.forEach((answer, i) => {
    try {
      checkAnswerShape(answer, op, `answers[${i}]`);
    } catch (err) {
      if (err instanceof OzMockError) throw err;
      throw new TypeError(`answers[${i}]: ${(err as Error).message}`);
    }
  });
}

/** The fixed answers of a checked spec, each checked against openapi.json (unless unchecked), named by its path. */
function fixedAnswers(op: OperationInfo, stub: StubData): ArmedStub['fixed'] {
  const answers = stub.answers ?? (stub.answer ? [stub.answer] : []);
  return answers.map((given, i) => {
    const answer = !isProxyAnswer(given) && given.reply ? { ...given, status: 200 } : given;
    return { answer, shape: checkedShape(op, answer, stub.answers ? `answers[${i}]` : 'answer', stub.unchecked === true) };
  });
}

/** The fixed answer the next matching request gets: a sequence's n-th (its last repeats). */
function nextFixed(stub: ArmedStub): ArmedStub['fixed'][number] | undefined {
  return stub.fixed[Math.min(stub.hits, stub.fixed.length - 1)];
}

function checkSpec(stub: StubData): OperationInfo {
  const s = stub as unknown as Record<string, unknown>;
  if (!isPlainObject(s)) throw new TypeError('A stub is an object');
  for (const k of Object.keys(s)) if (!STUB_FIELDS.includes(k)) throw new TypeError(`${k} is not a field of a stub (known: ${STUB_FIELDS.join(', ')})`);
  if (s.operationId === undefined) throw new TypeError('operationId is required');
  checkScopeOperationId(s.operationId);
  const op = serverOperationNamed(s.operationId as string)!;
  if ([s.answer, s.answers, s.respond].filter((v) => v !== undefined).length !== 1) throw new TypeError('Give answer, answers or respond (one of them)');
  if (s.respond !== undefined && typeof s.respond !== 'function') throw new TypeError('respond must be a function');
  if (s.answer !== undefined) checkAnswerShape(s.answer, op);
  if (s.answers !== undefined) checkSequence(s.answers, op);
  if (s.then !== undefined && (s.answers === undefined || !THEN_VALUES.includes(s.then as StubThen)))
    throw new TypeError(`then goes with answers and is one of: ${THEN_VALUES.join(', ')}`);
  if (s.times !== undefined && !(Number.isInteger(s.times) && (s.times as number) >= 1)) throw new TypeError('times must be an integer >= 1');
  if (s.unchecked !== undefined && typeof s.unchecked !== 'boolean') throw new TypeError('unchecked must be true or false');
  const m = s.match;
  if (m !== undefined) {
    if (!isPlainObject(m)) throw new TypeError('match must be an object: { path, query, body, account }');
    for (const k of Object.keys(m)) if (!MATCH_FIELDS.includes(k)) throw new TypeError(`match.${k} is not a field (known: ${MATCH_FIELDS.join(', ')})`);
    stringRecord(m.path, 'match.path');
    checkMatchPath(m.path as Readonly<Record<string, string>> | undefined, op);
    stringRecord(m.query, 'match.query');
    if (m.body !== undefined && !isPlainObject(m.body)) throw new TypeError('match.body must be an object of fields');
    if (m.account !== undefined && typeof m.account !== 'string') throw new TypeError('match.account must be a string');
  }
  return op;
}

function queryOf(ctx: RequestContext): Record<string, string> {
  const url = ctx.request.url;
  const q = url.indexOf('?');
  const out: Record<string, string> = {};
  if (q < 0) return out;
  for (const [k, v] of new URLSearchParams(url.slice(q + 1))) if (!Object.hasOwn(out, k)) out[k] = v;
  return out;
}

function matches(stub: ArmedStub, request: StubRequest): boolean {
  const m = stub.spec.match;
  if (!m) return true;
  if (stub.lastUser && !stub.lastUser(lastUserText(request.body))) return false;
  if (m.account !== undefined && m.account !== request.account) return false;
  if (m.path && !Object.entries(m.path).every(([k, v]) => request.path[k] === v)) return false;
  if (m.query && !Object.entries(m.query).every(([k, v]) => request.query[k] === v)) return false;
  return m.body === undefined || jsonSubset(request.body, m.body);
}

/** The payload kind a body of a component renders as on the markdown and text wires. */
function payloadOf(status: number, shape: ResponseShape | null, body: unknown): Payload {
  if (status >= 400 && isPlainObject(body) && isPlainObject(body.error)) return { kind: 'error', value: body.error as never };
  switch (shape?.schemaName) {
    case 'Execution':
      return { kind: 'execution', value: body as never };
    case 'ExecutionResult':
      return { kind: 'result', value: body as never };
    case 'AsyncPointer':
      return { kind: 'pointer', value: body as never };
    default:
      return { kind: 'record', value: (isPlainObject(body) || Array.isArray(body) ? body : { value: body }) as object };
  }
}

/** The reply of a stub's answer on the request's wire (JSON off the wire planes), or its stream of events. */
function stubReply(ctx: RequestContext, answer: StubAnswer, shape: ResponseShape | null): Reply {
  if (answer.text !== undefined) return textReply(ctx, { ...answer, text: answer.text, contentType: answer.contentType! });
  if (answer.events) {
    const stream = ctx.openStream(answer.cut?.afterEvents);
    void playEvents(stream, answer.events, ctx.parts.clock, ctx.op?.streaming === 'chat');
    const reply = ctx.stream(stream);
    if (reply.kind === 'stream') Object.assign(reply.headers, answer.headers);
    return reply;
  }
  const headers = withScriptedRetryAfter(answer.status, { ...answer.headers });
  if (answer.body === undefined || answer.body === null) {
    return ctx.buffered(answer.status, { ...ctx.headers(null), ...headers }, null);
  }
  const body = answer.body;
  if (isPlainObject(body) && isPlainObject(body.error) && typeof body.error.code === 'string') {
    headers['x-error-code'] ??= body.error.code;
    if (PERMANENT_ERROR_CODES.has(body.error.code)) headers['x-should-retry'] ??= 'false';
  }
  if (!ctx.op?.wire) return ctx.json(answer.status, body, headers);
  return ctx.reply(answer.status, payloadOf(answer.status, shape, body), headers);
}

/** A scripted reply: the operation's own handler renders it (`ctx.scriptedReply`), with the answer's headers. */
async function scripted(ctx: RequestContext, answer: StubAnswer, handler: () => Promise<RequestOutcome>): Promise<RequestOutcome> {
  ctx.scriptedReply = answer.reply ?? null;
  const reply = await handler();
  if (reply.kind === 'dropped') return reply;
  for (const [name, value] of Object.entries(answer.headers ?? {})) {
    if (reply.kind === 'response') reply.response.headers.set(name, value);
    else if (reply.kind === 'stream') reply.headers[name] = value;
    else reply.parts.headers[name] = value;
  }
  return reply;
}

/** An answer as listed: a proxy answer's key cut to its last characters. */
function listedAnswer(answer: AnyStubAnswer | undefined): AnyStubAnswer | undefined {
  return isProxyAnswer(answer) ? listedProxyAnswer(answer) : answer;
}

let nextStubId = 1;

/** The stubs of one world (a server or a session). */
export class Stubs implements OzStubs {
  #armed: ArmedStub[] = [];

  /** How many stubs are armed (the chain's `stub` step goes straight to the handler when none are). */
  get size(): number {
    return this.#armed.length;
  }

  // The union of every operation's stub, not a generic `add<I>`: inferring `I` widens the `200` a `respond`
  // without parameters returns to `number` (its return is typed before `I` is known); the union keeps it literal.
  // The unchecked stub is its own signature: in the same union its loose body would let a typed stub's extra
  // field through.
  add(stub: StubSpec): StubHandle;
  add(stub: UncheckedOperationStub): StubHandle;
  add(stub: StubSpec | UncheckedOperationStub): StubHandle {
    return this.addSpec(stub as unknown as StubData);
  }

  /** {@link OzStubs.add} of a stub typed only as data (a stubs file, the control plane, a server option). */
  addSpec(stub: StubData): StubHandle {
    checkNesting(stub, 'The stub');
    const op = checkSpec(stub);
    const fixed = fixedAnswers(op, stub);
    // A sequence that falls through gives each answer once (or `times` answers, if fewer), then is withdrawn.
    const remaining = stub.then === 'fallthrough' ? Math.min(stub.times ?? Infinity, fixed.length) : (stub.times ?? null);
    const lastUser = stub.match?.lastUserMessage === undefined ? null : lastUserMessageTest(stub.match.lastUserMessage, op);
    const armed: ArmedStub = { id: `stb_${nextStubId++}`, op, spec: stub, fixed, lastUser, remaining, hits: 0 };
    this.#armed.push(armed);
    return {
      id: armed.id,
      get hits() {
        return armed.hits;
      },
      get remaining() {
        return armed.remaining;
      },
      cancel: () => void this.cancel(armed.id),
    };
  }

  list(): StubView[] {
    return this.#armed.map((a) => ({
      id: a.id,
      operationId: a.spec.operationId,
      match: a.spec.match ?? {},
      answer: listedAnswer(nextFixed(a)?.answer) ?? '(function)',
      answers: a.spec.answers?.map((answer) => listedAnswer(answer)!) ?? null,
      position: a.spec.answers ? Math.min(a.hits, a.fixed.length - 1) : null,
      then: a.spec.answers ? (a.spec.then ?? 'repeat') : null,
      times: a.spec.times ?? null,
      remaining: a.remaining,
      hits: a.hits,
      unchecked: a.spec.unchecked === true,
    }));
  }

  cancel(id: string): boolean {
    const before = this.#armed.length;
    this.#armed = this.#armed.filter((a) => a.id !== id);
    return this.#armed.length !== before;
  }

  clear(): void {
    this.#armed = [];
  }

  /**
   * The operation's handler with the stubs in front of it: the newest matching stub answers; a `respond` that
   * returns nothing lets the next stub, then the handler, answer.
   */
  async answer(ctx: RequestContext, op: OperationInfo, handler: () => Promise<RequestOutcome>): Promise<RequestOutcome> {
    let request: StubRequest | null = null;
    for (let i = this.#armed.length - 1; i >= 0; i--) {
      const stub = this.#armed[i]!;
      if (stub.op !== op) continue;
      request ??= {
        operationId: op.id,
        path: ctx.params,
        query: queryOf(ctx),
        body: ctx.body,
        account: ctx.principal?.account.name ?? null,
        headers: ctx.request.headers,
      };
      if (!matches(stub, request)) continue;
      const fixed = nextFixed(stub);
      // A streamed answer is for the requests that stream; the others go on to older stubs and the server.
      if (fixed && !isProxyAnswer(fixed.answer) && fixed.answer.events && !requestStreams(op, request.body)) continue;
      stub.hits++;
      let answer: AnyStubAnswer | undefined;
      let shape: ResponseShape | null;
      if (fixed) ({ answer, shape } = fixed);
      else {
        answer = (await stub.spec.respond!(request)) ?? undefined;
        if (answer === undefined) continue;
        shape = this.#checkRespond(stub, answer);
      }
      if (stub.remaining !== null && --stub.remaining <= 0) this.#armed = this.#armed.filter((a) => a !== stub);
      ctx.answeredBy = 'stub';
      if (isProxyAnswer(answer)) return proxyReply(ctx, answer);
      if (answer.reply) return scripted(ctx, answer, handler);
      return stubReply(ctx, answer, shape);
    }
    return handler();
  }

  /** A `respond` function's answer, checked as a fixed answer is when added (a misfit is the test's bug: 500). */
  #checkRespond(stub: ArmedStub, answer: AnyStubAnswer): ResponseShape | null {
    try {
      checkAnswerShape(answer, stub.op);
      return checkedShape(stub.op, answer, 'answer', stub.spec.unchecked === true);
    } catch (err) {
      throw new OzMockError(500, 'internal_error', `Stub ${stub.id} (${stub.op.id}) answered what openapi.json does not allow: ${(err as Error).message}`);
    }
  }
}
