import type { OperationId } from '../../generated/operations.js';
import type { ErrorCode } from '../../generated/types.js';
import { ERROR_CODE_STATUS, retryableDeclaredErrors } from '../contract/declaredErrors.js';
import { LinearPattern, PatternError } from '../support/linearPattern.js';
import { isPlainObject } from '../support/plainObject.js';
import { checkScopeOperationId } from './requestScope.js';

/** A latency: fixed, uniform between two bounds, or lognormal around a median with a cap (ms of the server clock). */
export type ChaosLatency =
  | { readonly ms: number }
  | { readonly uniform: { readonly min: number; readonly max: number } }
  | { readonly lognormal: { readonly median: number; readonly sigma: number; readonly max: number } };

/** What a chaos rule does when its draw fires: one of the faults of `server.faults`, drawn where it varies. */
export type ChaosFault =
  /**
   * Answer an error instead of handling the request: `code` is one of openapi.json's `ErrorCode`, or `"declared"`
   * for one drawn among the errors the operation declares that a client retries (408, 429, 5xx). `status`
   * defaults to the code's; a 429 or 503 without `retryAfter` sends `Retry-After: 1`.
   */
  | { readonly type: 'error'; readonly code: ErrorCode | 'declared'; readonly status?: number; readonly retryAfter?: number; readonly message?: string }
  /** Wait a latency before handling the request. */
  | ({ readonly type: 'delay' } & ChaosLatency)
  | { readonly type: 'drop' }
  | { readonly type: 'cut'; readonly afterEvents: number }
  | { readonly type: 'lose' }
  /** Send the answer's body in pieces over `ms` in all. */
  | { readonly type: 'dribble'; readonly ms: number };

/** Which requests a rule draws for (the request pattern of faults): every given field must match; none, all. */
export interface ChaosMatch {
  readonly operationId?: OperationId;
  readonly method?: string;
  /** An exact path, or a pattern. */
  readonly path?: string | RegExp;
  /** A regular expression's source the path must match (the JSON form of a pattern; linear time). */
  readonly pathPattern?: string;
  /** The account whose key sent the request. */
  readonly account?: string;
  /** Fields the JSON body must hold (a subset, compared deeply). */
  readonly body?: Readonly<Record<string, unknown>>;
}

/** A rule: the requests it draws for, the probability its draw fires, and what then happens. */
export interface ChaosRule {
  /** Default: every request. */
  readonly match?: ChaosMatch;
  /** From 0 (never) to 1 (every matching request). */
  readonly probability: number;
  readonly fault: ChaosFault;
}

/**
 * Chaos: rules that fire at a rate, drawn from one seeded generator. Rules are tried in order; the first that
 * matches a request draws; the same seed and the same sequence of requests give the same faults.
 */
export interface ChaosDocument {
  /** The generator's seed (an integer). */
  readonly seed: number;
  readonly rules: readonly ChaosRule[];
}

const DOCUMENT_FIELDS = ['seed', 'rules'];
const RULE_FIELDS = ['match', 'probability', 'fault'];
const MATCH_FIELDS = ['operationId', 'method', 'path', 'pathPattern', 'account', 'body'];
const FAULT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  error: ['code', 'status', 'retryAfter', 'message'],
  delay: ['ms', 'uniform', 'lognormal'],
  drop: [],
  cut: ['afterEvents'],
  lose: [],
  dribble: ['ms'],
};

function onlyFields(o: Record<string, unknown>, known: readonly string[], at: string, what: string): void {
  for (const k of Object.keys(o)) if (!known.includes(k)) throw new TypeError(`${at}${k} is not a field of ${what} (known: ${known.join(', ') || 'none'})`);
}

const isMs = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

function checkMs(v: unknown, at: string): void {
  if (!isMs(v)) throw new TypeError(`${at} must be a number of ms >= 0`);
}

function checkMatch(m: unknown, at: string): void {
  if (!isPlainObject(m)) throw new TypeError(`${at} must be an object: { operationId, method, path, pathPattern, account, body }`);
  onlyFields(m, MATCH_FIELDS, `${at}.`, 'a match');
  try {
    checkScopeOperationId(m.operationId);
  } catch (err) {
    throw new TypeError(`${at}.${(err as Error).message}`);
  }
  if (m.method !== undefined && (typeof m.method !== 'string' || !/^[A-Za-z]+$/.test(m.method))) throw new TypeError(`${at}.method must be an HTTP method`);
  if (m.path !== undefined && typeof m.path !== 'string' && !(m.path instanceof RegExp)) throw new TypeError(`${at}.path must be a string or a RegExp`);
  if (m.pathPattern !== undefined) {
    if (m.path !== undefined) throw new TypeError(`${at}: give path or pathPattern, not both`);
    if (typeof m.pathPattern !== 'string') throw new TypeError(`${at}.pathPattern must be a regular expression as a string`);
    try {
      new LinearPattern(m.pathPattern);
    } catch (err) {
      throw new TypeError(`${at}.pathPattern is not ${err instanceof PatternError ? 'supported' : 'a regular expression'}: ${(err as Error).message}`);
    }
  }
  if (m.account !== undefined && typeof m.account !== 'string') throw new TypeError(`${at}.account must be a string`);
  if (m.body !== undefined && !isPlainObject(m.body)) throw new TypeError(`${at}.body must be an object of fields`);
}

function checkLatency(f: Record<string, unknown>, at: string): void {
  const given = ['ms', 'uniform', 'lognormal'].filter((k) => f[k] !== undefined);
  if (given.length !== 1) throw new TypeError(`${at} needs one of ms, uniform, lognormal`);
  if (f.ms !== undefined) checkMs(f.ms, `${at}.ms`);
  if (f.uniform !== undefined) {
    const u = f.uniform;
    if (!isPlainObject(u)) throw new TypeError(`${at}.uniform must be an object: { min, max }`);
    onlyFields(u, ['min', 'max'], `${at}.uniform.`, 'uniform');
    checkMs(u.min, `${at}.uniform.min`);
    checkMs(u.max, `${at}.uniform.max`);
    if ((u.max as number) < (u.min as number)) throw new TypeError(`${at}.uniform.max must be >= min`);
  }
  if (f.lognormal !== undefined) {
    const l = f.lognormal;
    if (!isPlainObject(l)) throw new TypeError(`${at}.lognormal must be an object: { median, sigma, max }`);
    onlyFields(l, ['median', 'sigma', 'max'], `${at}.lognormal.`, 'lognormal');
    if (!(isMs(l.median) && l.median > 0)) throw new TypeError(`${at}.lognormal.median must be a number of ms > 0`);
    if (!isMs(l.sigma)) throw new TypeError(`${at}.lognormal.sigma must be a number >= 0`);
    checkMs(l.max, `${at}.lognormal.max`);
  }
}

function checkError(f: Record<string, unknown>, at: string, operationId: unknown): void {
  if (f.code !== 'declared' && !(typeof f.code === 'string' && ERROR_CODE_STATUS.has(f.code))) {
    throw new TypeError(
      `${at}.code must be "declared" or one of openapi.json's ErrorCode, not ${JSON.stringify(f.code)} (known: ${[...ERROR_CODE_STATUS.keys()].join(', ')})`,
    );
  }
  if (f.status !== undefined && !(Number.isInteger(f.status) && (f.status as number) >= 400 && (f.status as number) <= 599))
    throw new TypeError(`${at}.status must be an integer from 400 to 599`);
  if (f.retryAfter !== undefined && !(Number.isInteger(f.retryAfter) && (f.retryAfter as number) >= 0))
    throw new TypeError(`${at}.retryAfter must be an integer >= 0 (seconds)`);
  if (f.message !== undefined && typeof f.message !== 'string') throw new TypeError(`${at}.message must be a string`);
  if (f.code === 'declared' && typeof operationId === 'string' && declaredFor(operationId, f.status as number | undefined).length === 0) {
    throw new TypeError(`${at}.code: ${operationId} declares no retryable error${f.status === undefined ? '' : ` of status ${String(f.status)}`}`);
  }
}

/** The retryable declared errors of an operation a `"declared"` error draws among (of `status`, when given). */
export function declaredFor(operationId: string, status: number | undefined): ReturnType<typeof retryableDeclaredErrors> {
  const all = retryableDeclaredErrors(operationId);
  return status === undefined ? all : all.filter((e) => e.status === status);
}

function checkFault(f: unknown, at: string, operationId: unknown): void {
  if (!isPlainObject(f)) throw new TypeError(`${at} must be an object: { type, ... }`);
  const types = Object.keys(FAULT_FIELDS);
  if (typeof f.type !== 'string' || !types.includes(f.type)) throw new TypeError(`${at}.type must be one of: ${types.join(', ')}`);
  onlyFields(f, ['type', ...FAULT_FIELDS[f.type]!], `${at}.`, `a ${f.type} fault`);
  if (f.type === 'error') checkError(f, at, operationId);
  if (f.type === 'delay') checkLatency(f, at);
  if (f.type === 'dribble') checkMs(f.ms, `${at}.ms`);
  if (f.type === 'cut' && !(Number.isInteger(f.afterEvents) && (f.afterEvents as number) >= 0))
    throw new TypeError(`${at}.afterEvents must be an integer >= 0`);
}

function checkRule(rule: unknown, at: string): void {
  if (!isPlainObject(rule)) throw new TypeError(`${at} must be an object: { match, probability, fault }`);
  onlyFields(rule, RULE_FIELDS, `${at}.`, 'a rule');
  if (rule.match !== undefined) checkMatch(rule.match, `${at}.match`);
  const p = rule.probability;
  if (!(typeof p === 'number' && p >= 0 && p <= 1)) throw new TypeError(`${at}.probability must be a number from 0 to 1`);
  if (rule.fault === undefined) throw new TypeError(`${at}.fault is required`);
  checkFault(rule.fault, `${at}.fault`, isPlainObject(rule.match) ? rule.match.operationId : undefined);
}

/** Throws a `TypeError` naming the field of a bad chaos document (`rules[0].probability must be ...`). */
export function checkChaosDocument(doc: unknown): asserts doc is ChaosDocument {
  if (!isPlainObject(doc)) throw new TypeError('A chaos document is an object: { seed, rules }');
  onlyFields(doc, DOCUMENT_FIELDS, '', 'a chaos document');
  if (!Number.isSafeInteger(doc.seed)) throw new TypeError('seed must be an integer');
  if (!Array.isArray(doc.rules)) throw new TypeError('rules must be a list of rules');
  doc.rules.forEach((rule, i) => checkRule(rule, `rules[${i}]`));
}
