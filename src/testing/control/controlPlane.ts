import { readBodyText } from '../wire/bodyText.js';
import { compilePathTemplate } from '../../generated/pathTemplate.js';
import { replyResponse, responseReply } from '../wire/requestOutcome.js';
import { Connection, fetchRequestReader } from '../wire/connection.js';
import type { OzDashboard } from '../mounts/dashboard.js';
import { invalidJson, invalidParams, OzMockError, toMockError, unauthorized } from '../contract/errors.js';
import { checkNesting, MAX_NESTING } from '../contract/nesting.js';
import type { Faults, FaultSpec } from '../harness/faults.js';
import type { Chaos, ChaosDocument } from '../harness/chaos.js';
import { journalFilter, type Journal, type JournalFilter } from '../harness/journal.js';
import type { Coverage } from '../harness/coverage.js';
import { renderCoverage } from '../harness/coverageFormats.js';
import { OzVerificationError } from '../harness/verificationError.js';
import { isPlainObject, ownValue } from '../support/plainObject.js';
import type { ItemPatch, OzItemControls, OzResetOptions, OzSession, OzSessionOptions } from '../public/ozServer.js';
import type { ServerClock } from '../time/clock.js';
import { KEY_IN_USE, type KeyExpiryDays, type KeyOptions } from '../state/store.js';
import type { OzKeyControls } from '../state/keyControls.js';
import type { ConnectionView, LinkConnectionOptions, OzConnectionControls } from '../state/connectionControls.js';
import { hashKey } from '../state/apiKeys.js';
import { adminTokenMatches } from './adminToken.js';
import { CONTROL_OPENAPI, SESSION_COPY_OF } from './controlOpenapi.js';
import type { Stubs, StubData } from '../pipeline/stubs/stubs.js';
import { unusedOf } from '../pipeline/stubs/unused.js';
import { FIXTURE_DOCUMENT, keyValueProblem, parseFixtureText, type FixtureDocument } from '../fixtures/fixtureFormat.js';
import type { FixtureSummary } from '../fixtures/fixtures.js';
import { journalEntryView } from './journalView.js';
import { journalHar } from '../harness/journalHar.js';
import { applySettings, checkSettings, readSettings, type SettingsNeeds } from './settings.js';
import { sessionView } from './sessionView.js';
import { STATE_DOCUMENT, STATE_DOCUMENT_NESTING, type OzStateDocument } from '../fixtures/stateDocument.js';
import { parseYaml } from '../wire/yamlWire.js';
import { LinearPattern, PatternError } from '../support/linearPattern.js';
import type { ServerEvents } from '../harness/serverEvents.js';
import type { Reply } from '../wire/requestOutcome.js';
import { eventFeed } from './eventFeed.js';
import { consolePage, consoleScriptAnswer, consoleStyleAnswer } from './consolePage.js';
import { controlPlaneCall, type ControlCall } from './remote.js';
import { loadPart } from '../../core/shared/optionalPart.js';
import { mcpInstructions, serverAbout, sessionAbout } from './controlMcpInfo.js';

/** The path every control-plane route starts with. */
export const CONTROL_PREFIX = '/_oz';

/** The parts of a server the control plane reads and changes directly: clock, faults, journal, settings, accounts. */
export interface ControlNeeds extends SettingsNeeds {
  readonly options: SettingsNeeds['options'] & { readonly maxBodyBytes: number };
  readonly clock: ServerClock;
  readonly faults: Faults;
  readonly chaos: Chaos;
  readonly stubs: Stubs;
  readonly journal: Journal;
  readonly events: ServerEvents;
  readonly coverage: Coverage;
}

/** What the control plane drives: the server's own controls (the same the in-process API offers). */
export interface ControlTarget {
  readonly parts: ControlNeeds;
  readonly items: OzItemControls;
  readonly dashboard: OzDashboard;
  reset(options?: OzResetOptions): void;
  baseline(): void;
  idle(): Promise<void>;
  loadFixtures(doc: FixtureDocument | string): FixtureSummary;
  exportState(): OzStateDocument;
  importState(doc: OzStateDocument): void;
  /** Writes the state file; answers its path. */
  saveState(): Promise<string>;
  readonly keys: OzKeyControls;
  readonly connections: OzConnectionControls;
  /** The server's sessions (the default session's target only). */
  readonly sessions?: SessionDirectory;
}

/** What the control plane does with a server's sessions (`/_oz/sessions`). */
export interface SessionDirectory {
  list(): OzSession[];
  /** Makes a session (a `TypeError` for bad options, 429 past the bound). */
  create(options?: OzSessionOptions): OzSession;
  /** Ends a session; answers whether it was live. */
  end(id: string): Promise<boolean>;
  /** A live session's control-plane target, or 404 `session_not_found`. */
  target(id: string): ControlTarget;
}

interface Call {
  readonly request: Request;
  readonly conn: Connection;
  readonly params: Readonly<Record<string, string>>;
  readonly url: URL;
  /** The body as text (empty when none). */
  text(): Promise<string>;
  /** The body as a JSON object (`{}` when empty), nested at most `nesting` levels (default: a request body's). */
  object(nesting?: { readonly what: string; readonly limit: number }): Promise<Record<string, unknown>>;
  /** The control plane itself, as this request's client reached it: what the MCP server's tools call. */
  control(): ControlCall;
}

/** A handler's answer: a `Response`, or a reply of another kind (the live feed's event stream). */
type Handler = (call: Call, target: ControlTarget) => Promise<Response | Reply> | Response | Reply;

function answer(status: number, body: unknown, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...extra } });
}

const OK = () => answer(200, { ok: true });

/** The standard error envelope, with `X-Error-Code`. */
function failure(err: OzMockError): Response {
  const extra: Record<string, string> = { 'x-error-code': err.code };
  if (err.status === 401) extra['www-authenticate'] = 'Bearer realm="oz-mock control plane"';
  if (err.status === 405) extra.allow = err.fields.extra?.allow as string;
  const object = err.toObject();
  delete object.allow;
  return answer(err.status, { error: object }, extra);
}

async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OzMockError(504, 'timeout', `${what}: work still in flight after ${ms} ms.`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

function integerField(o: Record<string, unknown>, name: string, min: number, max: number, fallback?: number): number {
  const v = o[name];
  if (v === undefined && fallback !== undefined) return fallback;
  if (!Number.isInteger(v) || (v as number) < min || (v as number) > max) throw invalidParams(`${name} must be an integer from ${min} to ${max}.`);
  return v as number;
}

function onlyFields(o: Record<string, unknown>, known: readonly string[]): void {
  for (const k of Object.keys(o)) if (!known.includes(k)) throw invalidParams(`${k} is not a field here (known: ${known.join(', ') || 'none'}).`);
}

/** A path segment, decoded; a malformed percent-escape (`%ff`, `%E0%A4%A`) is 400 `invalid_params`. */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new OzMockError(400, 'invalid_params', `The path segment ${segment} holds a malformed percent-escape (each % starts two hex digits of UTF-8).`);
  }
}

/** A `TypeError` or `RangeError` of an in-process control is a bad field: 422 over HTTP. */
function asInvalid<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    throw invalidOf(err);
  }
}

/** {@link asInvalid} for work that is awaited (the clock's advance). */
async function asInvalidAwaited<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw invalidOf(err);
  }
}

function invalidOf(err: unknown): unknown {
  if (err instanceof TypeError || err instanceof RangeError) return invalidParams(err.message.endsWith('.') ? err.message : `${err.message}.`);
  return err;
}

const FAULT_FIELDS = [
  'type',
  'operationId',
  'method',
  'path',
  'pathPattern',
  'account',
  'body',
  'times',
  'status',
  'code',
  'message',
  'retryAfter',
  'missing',
  'hint',
  'contract',
  'connect',
  'ms',
  'afterEvents',
];

/** A fault from its JSON form (`pathPattern` is a regular expression's source). */
function faultFromJson(o: Record<string, unknown>): FaultSpec {
  onlyFields(o, FAULT_FIELDS);
  const { pathPattern, ...rest } = o;
  if (pathPattern !== undefined) {
    if (rest.path !== undefined) throw invalidParams('Give path or pathPattern, not both.');
    if (typeof pathPattern !== 'string') throw invalidParams('pathPattern must be a regular expression as a string.');
    // Matched in linear time (linearPattern.ts): a pattern that would backtrack (`(a+)+`) cannot freeze the server.
    try {
      rest.path = new LinearPattern(pathPattern);
    } catch (err) {
      if (err instanceof PatternError) throw invalidParams(`pathPattern is not supported: ${err.message}.`);
      throw invalidParams(`pathPattern is not a regular expression: ${(err as Error).message}.`);
    }
  }
  return rest as unknown as FaultSpec;
}

/** The JSON form of a pending fault. */
export function faultToJson(id: string, remaining: number, spec: FaultSpec, hits = 0): Record<string, unknown> {
  const out: Record<string, unknown> = { id, remaining, hits };
  for (const [k, v] of Object.entries(spec)) {
    if (k === 'path' && v instanceof RegExp) out.pathPattern = v.source;
    else if (k === 'body' && typeof v === 'function') out.body = '(predicate)';
    else out[k] = v;
  }
  return out;
}

/** `{ chaos }` as `GET /_oz/chaos` answers it: a match's `path` pattern given in process as its `pathPattern`. */
function chaosState(doc: ChaosDocument | null): { chaos: unknown } {
  if (doc === null) return { chaos: null };
  const rules = doc.rules.map((rule) => {
    const path = rule.match?.path;
    if (!(path instanceof RegExp)) return rule;
    const { path: _, ...match } = rule.match!;
    return { ...rule, match: { ...match, pathPattern: path.source } };
  });
  return { chaos: { ...doc, rules } };
}

const JOURNAL_FILTERS = ['operationId', 'method', 'path', 'status', 'limit', 'account', 'header', 'body', 'format'];

/** The `body` filter of the journal: a JSON object in the query string. */
function jsonFilterBody(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidParams('body must be a JSON object (URL-encoded), for example {"text":"hi"}.');
  }
  if (!isPlainObject(parsed)) throw invalidParams('body must be a JSON object (URL-encoded), for example {"text":"hi"}.');
  return parsed;
}

/** The `account` query parameter of a listing (the only one it takes). */
function accountQuery(call: Call): { account?: string } {
  const q = call.url.searchParams;
  for (const k of q.keys()) if (k !== 'account') throw invalidParams(`${k} is not a filter (known: account).`);
  const account = q.get('account');
  return account === null ? {} : { account };
}

function sessionsOf(target: ControlTarget): SessionDirectory {
  if (!target.sessions) throw new OzMockError(404, 'not_found', 'A session has no sessions of its own.');
  return target.sessions;
}

function clockView(parts: ControlNeeds): Record<string, unknown> {
  return { now: parts.clock.iso(), now_ms: parts.clock.now(), frozen: parts.clock.frozen };
}

const ITEM_PATCH_TYPES: Readonly<Record<keyof ItemPatch, (v: unknown) => boolean>> = {
  step: (v) => typeof v === 'string' && v !== '',
  status: (v) => ['active', 'done', 'failed', 'parked'].includes(v as string),
  attempt: (v) => Number.isInteger(v) && (v as number) >= 0,
  priority: (v) => Number.isInteger(v),
  parked_reason: (v) => v === null || typeof v === 'string',
  paused: (v) => v === 0 || v === 1,
  steer: (v) => v === null || typeof v === 'string',
  last_output: (v) => v === null || typeof v === 'string',
};

function requireItem(target: ControlTarget, id: string): void {
  if (!target.items.get(id)) throw new OzMockError(404, 'item_not_found', `No item ${id}.`);
}

const COVERAGE_TYPES = [
  ['application/json', 'json'],
  ['text/html', 'html'],
  ['text/plain', 'txt'],
] as const;

/**
 * `GET /_oz/coverage`: the coverage report, as `oz-mock --coverage FILE` writes it, in the first form `Accept`
 * names (`text/html`: the page; `text/plain`: the table); JSON otherwise (the MCP tool's and a script's).
 */
function coverageAnswer(call: Call, coverage: Coverage): Response {
  for (const k of call.url.searchParams.keys()) throw invalidParams(`${k} is not a parameter here (none are: the form follows Accept).`);
  const accepted = (call.request.headers.get('accept') ?? '').split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());
  const format = accepted.map((type) => COVERAGE_TYPES.find(([t]) => t === type)?.[1]).find((f) => f !== undefined) ?? 'json';
  const report = coverage.report();
  if (format === 'json') return answer(200, report);
  // The page holds no script and loads nothing: `default-src 'none'` with its one inline style sheet.
  const headers: Record<string, string> = {
    'content-type': `${format === 'html' ? 'text/html' : 'text/plain'}; charset=utf-8`,
    'cache-control': 'no-store',
    vary: 'accept',
  };
  if (format === 'html') headers['content-security-policy'] = "default-src 'none'; style-src 'unsafe-inline'";
  return new Response(renderCoverage(report, format), { status: 200, headers });
}

/** The control plane's handlers by operationId of {@link CONTROL_OPENAPI}. */
const HANDLERS: Readonly<Record<string, Handler>> = {
  getControlOpenapi: () => answer(200, CONTROL_OPENAPI),
  reset: async (call, t) => {
    const o = await call.object();
    onlyFields(o, ['coverage']);
    asInvalid(() => t.reset(o as OzResetOptions));
    return OK();
  },
  captureBaseline: async (_, t) => {
    await withTimeout(t.idle(), 10_000, 'baseline');
    t.baseline();
    return OK();
  },
  loadFixtures: async (call, t) => {
    const text = await call.text();
    const yaml = /yaml/i.test(call.request.headers.get('content-type') ?? '');
    let doc: unknown;
    try {
      doc = yaml ? parseYaml(text, 'allow', FIXTURE_DOCUMENT) : parseFixtureText(text);
    } catch (err) {
      throw err instanceof OzMockError ? err : invalidJson(yaml ? 'YAML' : 'JSON or YAML', (err as Error).message.split('\n')[0] ?? '');
    }
    return answer(200, t.loadFixtures(doc as FixtureDocument));
  },
  exportState: (_, t) => answer(200, t.exportState()),
  importState: async (call, t) => {
    t.importState((await call.object({ what: STATE_DOCUMENT, limit: STATE_DOCUMENT_NESTING })) as unknown as OzStateDocument);
    return OK();
  },
  saveState: async (_, t) => answer(200, { ok: true, path: await t.saveState() }),
  listFaults: (_, t) => answer(200, { data: t.parts.faults.list.map((a) => faultToJson(a.id, a.remaining, a.spec, a.hits)) }),
  addFault: async (call, t) => {
    const o = await call.object();
    const handle = asInvalid(() => t.parts.faults.add(faultFromJson(o)));
    return answer(201, faultToJson(handle.id, handle.remaining, t.parts.faults.list.find((a) => a.id === handle.id)!.spec));
  },
  clearFaults: (_, t) => {
    t.parts.faults.clear();
    return OK();
  },
  cancelFault: (call, t) => {
    if (!t.parts.faults.cancel(call.params.id!)) throw new OzMockError(404, 'fault_not_found', `No pending fault ${call.params.id}.`);
    return OK();
  },
  getChaos: (_, t) => answer(200, chaosState(t.parts.chaos.get())),
  setChaos: async (call, t) => {
    const doc = await call.object();
    asInvalid(() => t.parts.chaos.set(doc as unknown as ChaosDocument));
    return answer(200, chaosState(t.parts.chaos.get()));
  },
  clearChaos: (_, t) => {
    t.parts.chaos.clear();
    return OK();
  },
  getClock: (_, t) => answer(200, clockView(t.parts)),
  setClock: async (call, t) => {
    const o = await call.object();
    onlyFields(o, ['now', 'frozen']);
    const { clock } = t.parts;
    if (o.frozen !== undefined && typeof o.frozen !== 'boolean') throw invalidParams('frozen must be true or false.');
    if (o.now !== undefined) {
      const at = typeof o.now === 'string' && /^\d{4}-\d\d-\d\dT/.test(o.now) ? Date.parse(o.now) : Number.NaN;
      if (Number.isNaN(at)) throw invalidParams('now must be an RFC 3339 time, for example 2026-11-22T12:00:00.000Z.');
      const ms = at - clock.now();
      if (ms < 0) throw invalidParams(`now is ${-ms} ms before the clock's time: the clock never goes back.`);
      await asInvalidAwaited(() => clock.advance(ms));
    }
    if (typeof o.frozen === 'boolean') clock.setFrozen(o.frozen);
    return answer(200, clockView(t.parts));
  },
  advanceClock: async (call, t) => {
    const o = await call.object();
    onlyFields(o, ['ms']);
    const ms = integerField(o, 'ms', 0, 10 * 366 * 86_400_000);
    await asInvalidAwaited(() => t.parts.clock.advance(ms));
    return answer(200, clockView(t.parts));
  },
  waitIdle: async (call, t) => {
    const o = await call.object();
    onlyFields(o, ['timeout_ms']);
    await withTimeout(t.idle(), integerField(o, 'timeout_ms', 0, 600_000, 10_000), 'idle');
    return OK();
  },
  getJournal: (call, t) => {
    const q = call.url.searchParams;
    for (const k of q.keys()) if (!JOURNAL_FILTERS.includes(k)) throw invalidParams(`${k} is not a filter (known: ${JOURNAL_FILTERS.join(', ')}).`);
    const filter: { -readonly [K in keyof JournalFilter]: JournalFilter[K] } = {};
    if (q.has('operationId')) filter.operationId = q.get('operationId') as JournalFilter['operationId'];
    if (q.has('method')) filter.method = q.get('method')!;
    if (q.has('path')) filter.path = q.get('path')!;
    if (q.has('account')) filter.account = q.get('account')!;
    if (q.has('header')) filter.header = q.get('header')!;
    if (q.has('body')) filter.body = jsonFilterBody(q.get('body')!);
    if (q.has('status')) {
      const s = q.get('status')!;
      if (!/^\d{3}$/.test(s)) throw invalidParams('status must be an HTTP status (three digits).');
      filter.status = Number(s);
    }
    const limitText = q.get('limit');
    if (limitText !== null && (!/^\d+$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 10_000))
      throw invalidParams('limit must be an integer from 1 to 10000.');
    const entries = asInvalid(() => t.parts.journal.filter(journalFilter(filter)));
    const picked = limitText === null ? entries : entries.slice(-Number(limitText));
    const format = q.get('format') ?? 'json';
    if (format !== 'json' && format !== 'har') throw invalidParams('format must be json or har.');
    if (format === 'har') return answer(200, journalHar(picked));
    return answer(200, { data: picked.map(journalEntryView) });
  },
  verifyJournal: async (call, t) => {
    const o = await call.object();
    onlyFields(o, ['operationId', 'method', 'path', 'status', 'account', 'header', 'body', 'times']);
    for (const k of ['operationId', 'method', 'path', 'account', 'header'] as const)
      if (o[k] !== undefined && typeof o[k] !== 'string') throw invalidParams(`${k} must be a string.`);
    if (o.status !== undefined && !Number.isInteger(o.status)) throw invalidParams('status must be an HTTP status (an integer).');
    if (o.body !== undefined && !isPlainObject(o.body)) throw invalidParams('body must be a JSON object of fields.');
    const { times, ...filter } = o;
    try {
      asInvalid(() => t.parts.journal.verify(journalFilter(filter as JournalFilter), times === undefined ? {} : { times: times as number }));
    } catch (err) {
      if (!(err instanceof OzVerificationError)) throw err;
      const error = { code: 'verification_failed', message: err.message, count: err.count, times: err.times, nearMisses: err.nearMisses };
      return answer(422, { error }, { 'x-error-code': 'verification_failed' });
    }
    return answer(200, { ok: true, count: t.parts.journal.count(journalFilter(filter as JournalFilter)) });
  },
  clearJournal: (_, t) => {
    t.parts.journal.clear();
    return OK();
  },
  listKeys: (call, t) => answer(200, { data: t.keys.list(accountQuery(call)) }),
  addKey: async (call, t) => {
    const o = await call.object();
    onlyFields(o, ['account', 'kind', 'name', 'api_key', 'value', 'expires_in_days', 'tools', 'addresses']);
    // `api_key` is the one name of a key's value; `value` is its old name, still read.
    if (o.api_key !== undefined && o.value !== undefined) throw invalidParams('Give api_key (or its old name value), not both.');
    if (o.api_key !== undefined) o.value = o.api_key;
    if (typeof o.account !== 'string') throw invalidParams('account is required (a string).', ['account']);
    if (!t.parts.store.data.accounts.has(o.account)) throw invalidParams(`account names no account: ${o.account}.`);
    for (const k of ['kind', 'name', 'value'] as const)
      if (o[k] !== undefined && typeof o[k] !== 'string') throw invalidParams(`${k === 'value' && o.api_key !== undefined ? 'api_key' : k} must be a string.`);
    for (const k of ['tools', 'addresses'] as const) {
      if (o[k] !== undefined && !(Array.isArray(o[k]) && (o[k] as unknown[]).every((s) => typeof s === 'string')))
        throw invalidParams(`${k} must be a list of strings.`);
    }
    if (o.kind !== undefined && !['platform', 'models', 'proxy'].includes(o.kind as string))
      throw invalidParams('kind must be one of: platform, models, proxy.');
    const shape = typeof o.value === 'string' ? keyValueProblem((o.kind as string | undefined) ?? 'platform', o.value) : null;
    const valueField = o.api_key !== undefined ? 'api_key' : 'value';
    if (shape) throw invalidParams(`${valueField} ${shape}.`);
    if (typeof o.value === 'string' && t.parts.store.keyInUse(hashKey(o.value))) throw invalidParams(`${valueField}: ${KEY_IN_USE}.`);
    const { apiKey, ...created } = t.keys.add({
      account: o.account,
      ...(o.kind !== undefined ? { kind: o.kind as KeyOptions['kind'] } : {}),
      ...(o.name !== undefined ? { name: o.name as string } : {}),
      ...(o.value !== undefined ? { apiKey: o.value as string } : {}),
      expiresInDays: (o.expires_in_days ?? null) as KeyExpiryDays,
      ...(o.tools !== undefined ? { tools: o.tools as string[] } : {}),
      ...(o.addresses !== undefined ? { addresses: o.addresses as string[] } : {}),
    });
    return answer(201, { api_key: apiKey, ...created });
  },
  revokeKey: (call, t) => {
    t.keys.revoke(call.params.id!);
    return OK();
  },
  listConnections: (call, t) => answer(200, { data: t.connections.list(accountQuery(call)) }),
  linkConnection: async (call, t) => {
    const o = await call.object();
    onlyFields(o, ['account', 'provider', 'method', 'status']);
    for (const k of ['account', 'provider'] as const) if (typeof o[k] !== 'string') throw invalidParams(`${k} is required (a string).`, [k]);
    const options = o as { method?: LinkConnectionOptions['method']; status?: LinkConnectionOptions['status'] };
    const linked: ConnectionView = t.connections.link(o.account as string, o.provider as string, {
      ...(options.method !== undefined ? { method: options.method } : {}),
      ...(options.status !== undefined ? { status: options.status } : {}),
    });
    return answer(201, linked);
  },
  unlinkConnection: (call, t) => {
    t.connections.unlink(call.params.account!, call.params.provider!);
    return OK();
  },
  parkItem: async (call, t) => {
    const o = await call.object();
    onlyFields(o, ['reason']);
    requireItem(t, call.params.id!);
    if (typeof o.reason !== 'string' || o.reason === '') throw invalidParams('reason is required (a string).', ['reason']);
    return answer(200, t.items.park(call.params.id!, o.reason));
  },
  pauseItem: (call, t) => {
    requireItem(t, call.params.id!);
    return answer(200, t.items.pause(call.params.id!));
  },
  resumeItem: (call, t) => {
    requireItem(t, call.params.id!);
    return answer(200, t.items.resume(call.params.id!));
  },
  updateItem: async (call, t) => {
    const o = await call.object();
    requireItem(t, call.params.id!);
    for (const [k, v] of Object.entries(o)) {
      const check = ownValue<(v: unknown) => boolean>(ITEM_PATCH_TYPES, k);
      if (!check) throw invalidParams(`${k} is not a field an item patch can change (known: ${Object.keys(ITEM_PATCH_TYPES).join(', ')}).`);
      if (!check(v)) throw invalidParams(`${k} has the wrong type or value.`);
    }
    return answer(200, t.items.update(call.params.id!, o as ItemPatch));
  },
  dashboardSignInAs: async (call, t) => {
    const o = await call.object();
    onlyFields(o, ['account', 'key_expiry_days', 'key_name']);
    if (!('account' in o) || (o.account !== null && typeof o.account !== 'string'))
      throw invalidParams('account is required: an account name, or null for a user who refuses.', ['account']);
    if (typeof o.account === 'string' && !t.parts.store.data.accounts.has(o.account)) throw invalidParams(`account names no account: ${o.account}.`);
    if (o.key_expiry_days !== undefined && ![7, 30, 90, 180, 365, null].includes(o.key_expiry_days as number))
      throw invalidParams('key_expiry_days must be one of 7, 30, 90, 180, 365 or null.');
    if (o.key_name !== undefined && (typeof o.key_name !== 'string' || o.key_name === '')) throw invalidParams('key_name must be a non-empty string.');
    t.dashboard.signInAs(o.account as string | null);
    if (o.key_expiry_days !== undefined) t.dashboard.keyExpiryDays = o.key_expiry_days as KeyExpiryDays;
    if (o.key_name !== undefined) t.dashboard.keyName = o.key_name as string;
    return OK();
  },
  listStubs: (_, t) => answer(200, { data: t.parts.stubs.list() }),
  addStub: async (call, t) => {
    const o = await call.object();
    if (typeof o.respond !== 'undefined') throw invalidParams('respond is an in-process function: over HTTP give answer.');
    const handle = asInvalid(() => t.parts.stubs.addSpec(o as unknown as StubData));
    return answer(
      201,
      t.parts.stubs.list().find((v) => v.id === handle.id),
    );
  },
  clearStubs: (_, t) => {
    t.parts.stubs.clear();
    return OK();
  },
  cancelStub: (call, t) => {
    if (!t.parts.stubs.cancel(call.params.id!)) throw new OzMockError(404, 'stub_not_found', `No armed stub ${call.params.id}.`);
    return OK();
  },
  listUnused: (_, t) => {
    const unused = unusedOf(t.parts);
    return answer(200, {
      faults: unused.faults.map(({ id, remaining, hits, nearMisses, ...spec }) => ({ ...faultToJson(id, remaining, spec as FaultSpec, hits), nearMisses })),
      stubs: unused.stubs,
    });
  },
  getCoverage: (call, t) => coverageAnswer(call, t.parts.coverage),
  listSessions: (_, t) => answer(200, { data: sessionsOf(t).list().map(sessionView) }),
  createSession: async (call, t) => {
    const registry = sessionsOf(t);
    const o = await call.object();
    return answer(201, sessionView(asInvalid(() => registry.create(o as OzSessionOptions))));
  },
  endSession: async (call, t) => {
    if (!(await sessionsOf(t).end(call.params.session!))) throw new OzMockError(404, 'session_not_found', `No live session ${call.params.session}.`);
    return OK();
  },
  followEvents: (call, t) => eventFeed(t.parts, call.request, call.conn),
  controlMcp: async (call) => {
    const { answerMcpRequest } = await loadPart("the control plane's MCP server", () => import('./controlMcpRoute.js'));
    const url = call.url.origin;
    const { session } = call.params;
    const control = call.control();
    const about = () => (session === undefined ? Promise.resolve(serverAbout(url)) : sessionAbout(url, control, session));
    return answerMcpRequest(call.request, await call.text(), {
      call: control,
      ...(session === undefined ? {} : { session }),
      instructions: mcpInstructions(serverAbout(url, session)),
      about,
    });
  },
  getConsole: () => consolePage(),
  getConsoleScript: () => consoleScriptAnswer(),
  getConsoleStyle: () => consoleStyleAnswer(),
  getSettings: (_, t) => answer(200, readSettings(t.parts)),
  updateSettings: async (call, t) => answer(200, applySettings(t.parts, checkSettings(await call.object()))),
};

interface Route {
  readonly method: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly handler: Handler;
  readonly open: boolean;
  /** A session's copy of a route: it acts on the session its `session` parameter names. */
  readonly inSession: boolean;
}

function compileRoutes(): Route[] {
  const routes: Route[] = [];
  for (const [path, item] of Object.entries(CONTROL_OPENAPI.paths)) {
    for (const [method, operation] of Object.entries(
      item as Record<string, { operationId: string; security?: readonly unknown[]; [SESSION_COPY_OF]?: string }>,
    )) {
      const copyOf = operation[SESSION_COPY_OF];
      const handler = HANDLERS[copyOf ?? operation.operationId];
      if (!handler) throw new Error(`No control-plane handler for ${operation.operationId}`);
      const { pattern, params: names } = compilePathTemplate(path);
      routes.push({ method: method.toUpperCase(), pattern, names, handler, open: operation.security?.length === 0, inSession: copyOf !== undefined });
    }
  }
  return routes;
}

const ROUTES = compileRoutes();

function authorize(request: Request, token: string): void {
  const header = request.headers.get('authorization');
  if (header === null) throw unauthorized('The control plane needs Authorization: Bearer <admin token> (ozadm_..., printed when oz-mock starts).');
  const value = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  if (value === undefined) throw unauthorized('Authorization must be Bearer <admin token>.');
  if (!value.startsWith('ozadm_')) throw unauthorized('API keys never open the control plane: send the admin token (ozadm_...).');
  if (!adminTokenMatches(token, value)) throw unauthorized('Wrong admin token.');
}

async function serve(request: Request, conn: Connection, target: ControlTarget, token: string): Promise<Response | Reply> {
  const url = new URL(request.url);
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const candidates = ROUTES.filter((r) => r.pattern.test(path));
  const route = candidates.find((r) => r.method === request.method);
  if (!route?.open) authorize(request, token);
  if (!route) {
    if (candidates.length) {
      throw new OzMockError(405, 'method_not_allowed', `${request.method} is not a method of ${path}.`, {
        extra: { allow: candidates.map((r) => r.method).join(', ') },
      });
    }
    throw new OzMockError(404, 'not_found', `No control-plane route ${request.method} ${path}.`);
  }
  const match = route.pattern.exec(path)!;
  const params: Record<string, string> = {};
  route.names.forEach((name, i) => (params[name] = decodedSegment(match[i + 1]!)));
  let text: Promise<string> | null = null;
  const readText = () => (text ??= readBodyText(conn.reader, target.parts.options.maxBodyBytes));
  const call: Call = {
    request,
    conn,
    params,
    url,
    text: readText,
    object: async (nesting = { what: 'The request body', limit: MAX_NESTING }) => {
      const raw = await readText();
      if (raw.trim() === '') return {};
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch (err) {
        throw invalidJson('JSON', (err as Error).message);
      }
      if (!isPlainObject(parsed)) throw invalidParams('The body must be a JSON object.');
      checkNesting(parsed, nesting.what, nesting.limit);
      return parsed;
    },
    control: () => {
      const loopback = async (input: string, init?: RequestInit) => {
        const inner = new Request(input, init);
        return replyResponse(
          await answerControlRequest(inner, new Connection(conn.mount, conn.surface, conn.remoteAddress, fetchRequestReader(inner)), target, token),
        );
      };
      return controlPlaneCall({ url: url.origin, adminToken: token, fetch: loopback });
    },
  };
  return route.handler(call, route.inSession ? sessionsOf(target).target(params.session!) : target);
}

/** The control plane's answer to a request (the `controlPlane` step's): a failure is the error envelope. */
export async function answerControlRequest(request: Request, conn: Connection, target: ControlTarget, token: string): Promise<Reply> {
  try {
    const served = await serve(request, conn, target, token);
    return served instanceof Response ? responseReply(served) : served;
  } catch (err) {
    if (err instanceof OzMockError) return responseReply(failure(err));
    // Never a bare 500 page: an unexpected error is the envelope's internal_error (its message without the token).
    return responseReply(failure(toMockError(err)));
  }
}
