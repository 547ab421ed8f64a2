import type { OperationId } from '../../generated/operations.js';
import type { ConnectInfo, ErrorCode } from '../../generated/types.js';
import type { JournalEntry } from './journal.js';
import { checkNesting } from '../contract/nesting.js';
import { OPENAPI_DOCUMENT } from '../contract/operations.js';
import { checkScopeOperationId, inScope } from './requestScope.js';
import { fieldDifference, parsedBody, subsetDifferences, type Difference } from './nearMisses.js';
import { jsonSubset } from '../support/jsonSubset.js';

/** What a fault does to a matching request. */
export type FaultAction =
  /**
   * Answer this error instead of handling the request (nothing is written). The envelope carries `message`,
   * and `missing`, `hint`, `contract`, `connect` when given; `retryAfter` (seconds) is sent as `Retry-After`.
   */
  | {
      readonly type: 'error';
      readonly status: number;
      /** One of openapi.json's `ErrorCode` (another code throws at `add`: the SDK would not know it). */
      readonly code: ErrorCode;
      readonly message?: string;
      readonly retryAfter?: number;
      readonly missing?: readonly string[];
      readonly hint?: string;
      readonly contract?: string;
      readonly connect?: ConnectInfo;
    }
  /** Wait `ms` of the server clock before handling the request (an aborted request is then not handled). */
  | { readonly type: 'delay'; readonly ms: number }
  /** Drop the connection without handling the request: nothing is written. */
  | { readonly type: 'drop' }
  /** Handle the request, then cut its event stream after `afterEvents` events (non-stream answers: as `lose`). */
  | { readonly type: 'cut'; readonly afterEvents: number }
  /** Handle the request (the execution runs and is recorded), then drop the connection instead of answering. */
  | { readonly type: 'lose' }
  /** Handle the request, then send its answer's body in pieces spread over `ms` of the server clock. */
  | { readonly type: 'dribble'; readonly ms: number };

/** A fault's match on the request body: fields the JSON body must hold (a JSON subset, as stubs and the journal match), or a predicate. */
export type FaultBodyMatch = Readonly<Record<string, unknown>> | ((body: unknown) => boolean);

/** Which requests a fault applies to: every given field must match; none given matches every request. */
export interface FaultScope {
  /** An operationId of openapi.json (`mcpRequest` also covers the MCP server's own URL). An unknown id throws. */
  readonly operationId?: OperationId;
  readonly method?: string;
  /** An exact path, or a pattern. */
  readonly path?: string | RegExp;
  /** The account whose key sent the request. */
  readonly account?: string;
  /** The request body: the JSON body holds every field given (a subset, compared deeply), or the predicate answers true. */
  readonly body?: FaultBodyMatch;
  /** How many matching requests it applies to. Default 1. */
  readonly times?: number;
}

/** A fault to inject: an action and its scope. */
export type FaultSpec = FaultAction & FaultScope;

/** A fault that was added: its id, how often it will still apply, and a way to withdraw it. */
export interface FaultHandle {
  /** The fault's id (`flt_...`), as `GET /_oz/faults` lists it. */
  readonly id: string;
  readonly remaining: number;
  /** How many requests it applied to so far. */
  readonly hits: number;
  cancel(): void;
}

/** Fault injection for the next N matching requests. */
export interface OzFaults {
  /** Adds a fault; faults apply in the order added, one per request. Throws a `TypeError` for a bad fault. */
  add(fault: FaultSpec): FaultHandle;
  /** Withdraws every fault. */
  clear(): void;
  /** The faults still pending. */
  readonly pending: readonly FaultSpec[];
}

/** A pending fault with its id and the times it still applies. */
export interface ArmedFault {
  readonly id: string;
  readonly spec: FaultSpec;
  remaining: number;
  /** How many requests it applied to so far. */
  hits: number;
}

/** What a fault can match a request on besides its journal entry (worked out only when a fault asks). */
export interface FaultRequestFacts {
  /** The account of the request's key, or `null`. */
  account(): string | null;
  /** The parsed JSON body, or `undefined` when none or not JSON. */
  body(): unknown;
}

const FAULT_TYPES: ReadonlySet<unknown> = new Set(['error', 'delay', 'drop', 'cut', 'lose', 'dribble']);

const ERROR_CODES: readonly string[] = (
  OPENAPI_DOCUMENT as { components: { schemas: { ErrorCode: { oneOf: Array<{ const: string }> } } } }
).components.schemas.ErrorCode.oneOf.map((c) => c.const);

/** Throws a `TypeError` naming what is wrong with a fault. */
export function checkFault(fault: FaultSpec): void {
  const f = fault as unknown as Record<string, unknown>;
  if (typeof f !== 'object' || f === null) throw new TypeError('A fault is an object');
  if (!FAULT_TYPES.has(f.type)) throw new TypeError('type must be one of: error, delay, drop, cut, lose, dribble');
  checkScopeOperationId(f.operationId);
  if (f.times !== undefined && !(Number.isInteger(f.times) && (f.times as number) >= 1)) throw new TypeError('times must be an integer >= 1');
  if (f.method !== undefined && (typeof f.method !== 'string' || !/^[A-Za-z]+$/.test(f.method))) throw new TypeError('method must be an HTTP method');
  if (f.path !== undefined && typeof f.path !== 'string' && !(f.path instanceof RegExp)) throw new TypeError('path must be a string or a RegExp');
  if (f.account !== undefined && typeof f.account !== 'string') throw new TypeError('account must be a string');
  if (f.body !== undefined && typeof f.body !== 'function' && (typeof f.body !== 'object' || f.body === null || Array.isArray(f.body))) {
    throw new TypeError('body must be an object of fields or a predicate');
  }
  if (f.type === 'error') {
    if (!(Number.isInteger(f.status) && (f.status as number) >= 400 && (f.status as number) <= 599))
      throw new TypeError('An error fault needs status from 400 to 599');
    if (typeof f.code !== 'string' || f.code === '') throw new TypeError('An error fault needs a code');
    if (!ERROR_CODES.includes(f.code))
      throw new TypeError(`code must be one of openapi.json's ErrorCode, not ${JSON.stringify(f.code)} (known: ${ERROR_CODES.join(', ')})`);
    if (f.message !== undefined && typeof f.message !== 'string') throw new TypeError('message must be a string');
    if (f.hint !== undefined && typeof f.hint !== 'string') throw new TypeError('hint must be a string');
    if (f.contract !== undefined && typeof f.contract !== 'string') throw new TypeError('contract must be a string');
    if (f.missing !== undefined && !(Array.isArray(f.missing) && f.missing.every((m) => typeof m === 'string')))
      throw new TypeError('missing must be a list of strings');
    if (f.retryAfter !== undefined && !(Number.isInteger(f.retryAfter) && (f.retryAfter as number) >= 0))
      throw new TypeError('retryAfter must be an integer >= 0 (seconds)');
    const c = f.connect as Record<string, unknown> | undefined;
    if (
      c !== undefined &&
      (typeof c !== 'object' ||
        c === null ||
        typeof c.provider !== 'string' ||
        !['oauth', 'api_key', 'wallet'].includes(c.method as string) ||
        typeof c.link !== 'string')
    ) {
      throw new TypeError('connect must be {provider, method: oauth|api_key|wallet, link}');
    }
  }
  if (f.type === 'delay' && !(typeof f.ms === 'number' && Number.isFinite(f.ms) && f.ms >= 0)) throw new TypeError('A delay fault needs ms >= 0');
  if (f.type === 'cut' && !(Number.isInteger(f.afterEvents) && (f.afterEvents as number) >= 0)) throw new TypeError('A cut fault needs afterEvents >= 0');
  if (f.type === 'dribble' && !(typeof f.ms === 'number' && Number.isFinite(f.ms) && f.ms >= 0)) throw new TypeError('A dribble fault needs ms >= 0');
}

// One body semantics for every request pattern (faults, chaos rules, stubs, the journal's filters): a JSON subset.
function bodyMatches(match: FaultBodyMatch, body: unknown): boolean {
  if (typeof match === 'function') return match(body) === true;
  return jsonSubset(body, match);
}

/** What of a request differs from a fault's scope (see `server.unused()`'s near misses). */
export function faultDifferences(entry: JournalEntry, s: FaultSpec): Difference[] {
  const out = [...fieldDifference('operationId', s.operationId, entry.operationId), ...fieldDifference('method', s.method?.toUpperCase(), entry.method)];
  if (typeof s.path === 'string') out.push(...fieldDifference('path', s.path, entry.path));
  else if (s.path !== undefined && !s.path.test(entry.path)) out.push({ path: 'path', expected: `/${s.path.source}/`, actual: entry.path });
  out.push(...fieldDifference('account', s.account, entry.account));
  const body = parsedBody(entry);
  if (typeof s.body === 'function') {
    if (!bodyMatches(s.body, body)) out.push({ path: 'body', expected: '(predicate)', actual: body });
  } else if (s.body !== undefined) {
    out.push(...subsetDifferences(s.body, body, 'body'));
  }
  return out;
}

let nextFaultId = 1;

/** The faults of a server. */
export class Faults implements OzFaults {
  #armed: ArmedFault[] = [];

  get pending(): readonly FaultSpec[] {
    return this.#armed.map((a) => a.spec);
  }

  /** The pending faults with their ids and remaining times. */
  get list(): readonly ArmedFault[] {
    return this.#armed;
  }

  add(fault: FaultSpec): FaultHandle {
    checkNesting(fault, 'The fault');
    checkFault(fault);
    const armed: ArmedFault = { id: `flt_${nextFaultId++}`, spec: fault, remaining: fault.times ?? 1, hits: 0 };
    this.#armed.push(armed);
    const list = () => this.#armed;
    return {
      id: armed.id,
      get remaining() {
        return list().includes(armed) ? armed.remaining : 0;
      },
      get hits() {
        return armed.hits;
      },
      cancel: () => void this.cancel(armed.id),
    };
  }

  /** Withdraws one fault; answers whether it was pending. */
  cancel(id: string): boolean {
    const before = this.#armed.length;
    this.#armed = this.#armed.filter((a) => a.id !== id);
    return this.#armed.length !== before;
  }

  clear(): void {
    this.#armed = [];
  }

  /** The fault for a request, counted as used, or `null`. */
  take(entry: JournalEntry, facts: FaultRequestFacts): FaultSpec | null {
    if (this.#armed.length === 0) return null;
    for (const a of this.#armed) {
      const s = a.spec;
      if (!inScope(entry, s)) continue;
      if (s.account !== undefined && s.account !== facts.account()) continue;
      if (s.body !== undefined && !bodyMatches(s.body, facts.body())) continue;
      a.hits++;
      if (--a.remaining <= 0) this.#armed = this.#armed.filter((x) => x !== a);
      return s;
    }
    return null;
  }
}
