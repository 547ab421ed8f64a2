import type { OperationId } from '../../generated/operations.js';
import type { Item } from '../../generated/types.js';
import { OzMockError } from '../contract/errors.js';
import type { FaultAction, FaultScope } from '../harness/faults.js';
import type { ChaosDocument } from '../harness/chaos.js';
import type { JournalContentFilter } from '../harness/journalMatch.js';
import type { JournalHeaders, VerifyOptions } from '../harness/journal.js';
import type { NearMiss, SeenRequest } from '../harness/nearMisses.js';
import { OzVerificationError } from '../harness/verificationError.js';
import type { StubSpec, StubView } from '../pipeline/stubs/stubs.js';
import type { OperationStub, UncheckedOperationStub } from '../pipeline/stubs/operationStub.js';
import type { NearMissed } from '../pipeline/stubs/unused.js';
import type { CoverageAnswerer, OzCoverageReport } from '../harness/coverage.js';
import type { ItemPatch, OzResetOptions, SessionKey } from '../public/ozServer.js';
import type { CreatedKey, KeyExpiryDays, KeyOptions } from '../state/store.js';
import type { KeyView } from '../state/keyControls.js';
import type { ConnectionView, LinkConnectionOptions } from '../state/connectionControls.js';
import { OzNoDemoKeyError } from '../contract/noDemoKeyError.js';
import type { FixtureDocument } from '../fixtures/fixtureFormat.js';
import type { FixtureSummary } from '../fixtures/fixtures.js';
import type { JournalEntryView } from './journalView.js';
import type { SessionView } from './sessionView.js';
import type { OzSettings } from './settings.js';
import type { OzStateDocument } from '../fixtures/stateDocument.js';
import type { Har } from '../recording/har.js';

/** A value, or a promise of it: the in-process server answers at once, a remote one later. */
export type Awaitable<T> = T | Promise<T>;

/** A fault that can cross HTTP: a body match is an object of fields (a predicate function cannot travel). */
export type PortableFaultSpec = FaultAction & Omit<FaultScope, 'body'> & { readonly body?: Readonly<Record<string, unknown>> };

/** Which journal entries to pick over HTTP (an exact path). */
export interface PortableJournalFilter extends JournalContentFilter {
  readonly operationId?: OperationId;
  readonly method?: string;
  readonly path?: string;
  readonly status?: number;
}

/** A stub that can cross HTTP: a fixed answer (a `respond` function cannot travel). */
export type PortableStubSpec<I extends OperationId = OperationId> = Exclude<OperationStub<I>, { readonly respond: (...args: never[]) => unknown }>;

/** An unchecked stub that can cross HTTP (see {@link UncheckedOperationStub}). */
export type PortableUncheckedStubSpec = Omit<UncheckedOperationStub, 'respond'>;

/** What a journal entry holds on both sides (the in-process entry has these fields and more). */
export interface JournalRecord extends SeenRequest {
  /** The request headers by lower-case name (over HTTP, key and token values cut to their prefix and four characters). */
  readonly headers: JournalHeaders;
  readonly executionId: string | null;
  readonly fault: string | null;
  /** The answer replayed a kept answer (`x-idempotent-replayed: true`). */
  readonly replayed: boolean;
  /** A proxy stub sent the request on to this URL (origin and path), or `null`. */
  readonly proxied: string | null;
  /** What gave the answer (`handler`, `stub`, `fault`, `chaos`), as the coverage counts it; `null` while under way or dropped. */
  readonly answeredBy: CoverageAnswerer | null;
}

/** The controls of one world, the server's or a session's (see {@link OzControls}). */
export interface OzWorldControls {
  /** Back to the baseline; the coverage counts are cleared unless `{ coverage: 'keep' }`. */
  reset(options?: OzResetOptions): Awaitable<void>;
  /** What the run exercised of openapi.json (`GET /_oz/coverage`): hold it to a gate with `expectCoverage()`. */
  coverage(): Awaitable<OzCoverageReport>;
  baseline(): Awaitable<void>;
  loadFixtures(document: FixtureDocument | string): Awaitable<FixtureSummary>;
  exportState(): Awaitable<OzStateDocument>;
  importState(document: OzStateDocument): Awaitable<void>;
  idle(): Promise<void>;
  readonly faults: {
    add(fault: PortableFaultSpec): Awaitable<{ readonly id: string }>;
    clear(): Awaitable<void>;
  };
  /** Chaos rules (`PUT`, `GET`, `DELETE /_oz/chaos`): a bad document is a `TypeError` in process, 422 over HTTP. */
  readonly chaos: {
    set(doc: ChaosDocument): Awaitable<void>;
    get(): Awaitable<ChaosDocument | null>;
    clear(): Awaitable<void>;
  };
  readonly stubs: {
    /** Arms a stub (over HTTP only a fixed answer travels: a `respond` function throws a `TypeError`). */
    add(stub: StubSpec): Awaitable<{ readonly id: string }>;
    add(stub: PortableUncheckedStubSpec): Awaitable<{ readonly id: string }>;
    list(): Awaitable<readonly StubView[]>;
    clear(): Awaitable<void>;
  };
  /** The faults and stubs armed and never used. */
  unused(): Awaitable<{ readonly faults: ReadonlyArray<{ readonly id: string } & NearMissed>; readonly stubs: ReadonlyArray<StubView & NearMissed> }>;
  readonly clock: {
    now(): Awaitable<number>;
    advance(ms: number): Promise<void>;
  };
  readonly journal: {
    filter(filter: PortableJournalFilter | OperationId): Awaitable<readonly JournalRecord[]>;
    last(filter?: PortableJournalFilter | OperationId): Awaitable<JournalRecord | undefined>;
    count(filter?: PortableJournalFilter | OperationId): Awaitable<number>;
    clear(): Awaitable<void>;
    /** Asserts `times` matching entries (default: at least one); else throws `OzVerificationError` naming the closest. */
    verify(filter: PortableJournalFilter | OperationId, options?: VerifyOptions): Awaitable<void>;
    /** Every entry as a HAR 1.2 document, credentials reading `<redacted>`. */
    toHAR(): Awaitable<Har>;
  };
  /** The accounts' connections (`/_oz/connections`): an unknown account is 422 `invalid_params`, an unknown connection 404 `connection_not_found`. */
  readonly connections: {
    link(account: string, provider: string, options?: LinkConnectionOptions): Awaitable<ConnectionView>;
    list(options?: { readonly account?: string }): Awaitable<readonly ConnectionView[]>;
    unlink(account: string, provider: string): Awaitable<void>;
  };
}

/** The keys' controls (`/_oz/keys`): a bad option is 422 `invalid_params`, an unknown key id 404 `key_not_found`. */
export interface PortableKeyControls {
  /** Adds a key; its value is `apiKey`, answered this once. */
  add(options: KeyOptions): Awaitable<CreatedKey>;
  /** The keys, oldest first, revoked ones included (never a value: its `preview`). */
  list(options?: { readonly account?: string }): Awaitable<readonly KeyView[]>;
  /** Revokes a key by id: it answers 401 once the key cache's time has passed. */
  revoke(id: string): Awaitable<void>;
}

/** Options of a session on both surfaces (`server.session()`, `POST /_oz/sessions`). */
export interface PortableSessionOptions {
  readonly fixtures?: FixtureDocument | readonly FixtureDocument[];
  readonly clock?: { readonly start?: string; readonly frozen?: boolean };
}

/** A session as both surfaces give it: its world's controls, its keys, and `close()`. */
export interface OzControlsSession extends OzWorldControls {
  /** The session's id (`ses_...`). */
  readonly id: string;
  /** The session's copy of the demo platform key; reading it throws `OzNoDemoKeyError` when the baseline has none. */
  readonly apiKey: string;
  /** The session's keys (copies of the baseline's, with new values), each with its `apiKey`. */
  readonly keys: readonly SessionKey[];
  addKey(options: KeyOptions): Awaitable<CreatedKey>;
  revokeKey(id: string): Awaitable<void>;
  listKeys(options?: { readonly account?: string }): Awaitable<readonly KeyView[]>;
  /** Ends the session: its keys answer 401 from then on. */
  close(): Promise<void>;
}

/**
 * The controls the in-process server (`createOzServer()`) and a remote `oz-mock` (`connectOzMock()`) share,
 * so one test file runs against both: `await` every call (in process the answers are immediate).
 */
export interface OzControls extends OzWorldControls {
  readonly keys: PortableKeyControls;
  /** A new session: an isolated world made from the baseline, with new key values. */
  session(options?: PortableSessionOptions): Awaitable<OzControlsSession>;
}

/** A pending fault as the control plane lists it. */
export interface RemoteFault {
  readonly id: string;
  readonly remaining: number;
  /** How many requests it applied to so far. */
  readonly hits: number;
  readonly [field: string]: unknown;
}

/** A fault armed on a remote server. */
export interface RemoteFaultHandle {
  readonly id: string;
  /** Withdraws it (a fault already used up is gone: nothing happens). */
  cancel(): Promise<void>;
}

/** The server clock as the control plane answers it. */
export interface RemoteClock {
  readonly now: string;
  readonly now_ms: number;
  readonly frozen: boolean;
}

/** A stub armed on a remote server. */
export interface RemoteStubHandle {
  readonly id: string;
  /** Withdraws it (a stub already used up is gone: nothing happens). */
  cancel(): Promise<void>;
}

/** A session of a remote server: its controls (every route under `/_oz/sessions/{id}/`), its keys, and `close()`. */
export interface OzMockSession extends Omit<OzMockControls, 'keys'> {
  /** The session's id (`ses_...`). */
  readonly id: string;
  /** The session's copy of the demo platform key; reading it throws `OzNoDemoKeyError` when the baseline has none. */
  readonly apiKey: string;
  /** The session's keys (copies of the baseline's, with new values). */
  readonly keys: readonly SessionKey[];
  /** Adds a key to the session (`POST /_oz/sessions/{id}/keys`), as the server's `keys.add`. */
  addKey: OzMockControls['keys']['add'];
  /** Revokes a key of the session, as the server's `keys.revoke`. */
  revokeKey: OzMockControls['keys']['revoke'];
  /** The session's keys (`GET /_oz/sessions/{id}/keys`), as the server's `keys.list`. */
  listKeys: OzMockControls['keys']['list'];
  /** Ends the session (`DELETE /_oz/sessions/{id}`); ending one already ended does nothing. */
  close(): Promise<void>;
}

/** A remote `oz-mock`'s control plane, typed: see {@link connectOzMock}. */
export interface OzMockClient extends OzMockControls {
  /** Writes the state to the server's `--state` file; answers its path (409 `no_state_file` without one). */
  saveState(): Promise<string>;
  readonly dashboard: {
    signInAs(account: string | null, options?: { keyExpiryDays?: KeyExpiryDays; keyName?: string }): Promise<void>;
  };
  settings(): Promise<OzSettings>;
  updateSettings(patch: Partial<OzSettings>): Promise<OzSettings>;
  /**
   * A new session (`POST /_oz/sessions`): an isolated world of the server with keys of its own. Past the server's
   * `--max-sessions`, 429 `rate_limited`.
   */
  session(options?: PortableSessionOptions): Promise<OzMockSession>;
}

/** The controls of a remote server or of one of its sessions. */
export interface OzMockControls extends OzWorldControls {
  /** The server's base URL. */
  readonly url: string;
  reset(options?: OzResetOptions): Promise<void>;
  coverage(): Promise<OzCoverageReport>;
  baseline(): Promise<void>;
  loadFixtures(document: FixtureDocument | string): Promise<FixtureSummary>;
  exportState(): Promise<OzStateDocument>;
  importState(document: OzStateDocument): Promise<void>;
  /** Resolves once no work is in flight (504 `timeout` after `timeoutMs`, default 10000). */
  idle(options?: { readonly timeoutMs?: number }): Promise<void>;
  readonly faults: {
    add(fault: PortableFaultSpec): Promise<RemoteFaultHandle>;
    clear(): Promise<void>;
    list(): Promise<RemoteFault[]>;
  };
  readonly chaos: {
    /** Replaces the rules (`PUT /_oz/chaos`; a match's RegExp `path` goes as its `pathPattern`). */
    set(doc: ChaosDocument): Promise<void>;
    get(): Promise<ChaosDocument | null>;
    clear(): Promise<void>;
  };
  readonly stubs: {
    /** `POST /_oz/stubs`: a fixed answer or a sequence ({@link PortableStubSpec}); a `respond` function throws a `TypeError`. */
    add(stub: StubSpec): Promise<RemoteStubHandle>;
    add(stub: PortableUncheckedStubSpec): Promise<RemoteStubHandle>;
    list(): Promise<StubView[]>;
    clear(): Promise<void>;
  };
  /** The faults and stubs armed and never used (`GET /_oz/unused`): for an `afterEach`. */
  unused(): Promise<{ faults: Array<RemoteFault & NearMissed>; stubs: Array<StubView & NearMissed> }>;
  readonly clock: {
    now(): Promise<number>;
    get(): Promise<RemoteClock>;
    advance(ms: number): Promise<void>;
    /** Moves the clock forward to `now` (it never goes back). */
    set(now: Date | string): Promise<RemoteClock>;
  };
  readonly journal: {
    entries(): Promise<JournalEntryView[]>;
    filter(filter: PortableJournalFilter | OperationId, limit?: number): Promise<JournalEntryView[]>;
    last(filter?: PortableJournalFilter | OperationId): Promise<JournalEntryView | undefined>;
    count(filter?: PortableJournalFilter | OperationId): Promise<number>;
    clear(): Promise<void>;
    /** `POST /_oz/journal/verify`: throws `OzVerificationError` (its 422's count and near misses) when it fails. */
    verify(filter: PortableJournalFilter | OperationId, options?: VerifyOptions): Promise<void>;
    /** `GET /_oz/journal?format=har`: the entries (those of `filter`, else all) as a HAR 1.2 document, credentials reading `<redacted>`. */
    toHAR(filter?: PortableJournalFilter | OperationId): Promise<Har>;
  };
  readonly keys: {
    /** `POST /_oz/keys`: `apiKey` fixes the value. Answers the key with its value as `apiKey`. */
    add(options: KeyOptions & LegacyRemoteKeyOptions): Promise<CreatedKey>;
    /** `GET /_oz/keys`: the keys, oldest first, revoked ones included. */
    list(options?: { readonly account?: string }): Promise<KeyView[]>;
    /** `POST /_oz/keys/{id}/revoke`. */
    revoke(id: string): Promise<void>;
  };
  readonly connections: {
    /** `POST /_oz/connections`. */
    link(account: string, provider: string, options?: LinkConnectionOptions): Promise<ConnectionView>;
    /** `GET /_oz/connections`. */
    list(options?: { readonly account?: string }): Promise<ConnectionView[]>;
    /** `DELETE /_oz/connections/{account}/{provider}`. */
    unlink(account: string, provider: string): Promise<void>;
  };
  readonly items: {
    park(id: string, reason: string): Promise<Item>;
    pause(id: string): Promise<Item>;
    resume(id: string): Promise<Item>;
    update(id: string, patch: ItemPatch): Promise<Item>;
  };
}

/** The HTTP names `connectOzMock()`'s `keys.add` took before it took `apiKey` and `expiresInDays`. */
export interface LegacyRemoteKeyOptions {
  /** @deprecated give `apiKey`. */
  readonly api_key?: string;
  /** @deprecated give `apiKey`. */
  readonly value?: string;
  /** @deprecated give `expiresInDays`. */
  readonly expires_in_days?: KeyExpiryDays;
}

/** Options of {@link connectOzMock}. */
export interface ConnectOzMockOptions {
  /** The server's base URL, for example `http://127.0.0.1:4010`. */
  readonly url: string;
  /** The admin token `oz-mock` printed (`OZ_MOCK_ADMIN_TOKEN=...`). */
  readonly adminToken: string;
  /** The `fetch` to use. Default: the global one. */
  readonly fetch?: (input: string, init?: RequestInit) => Promise<Response>;
}

function journalQuery(filter: PortableJournalFilter | OperationId | undefined, limit?: number): string {
  const f = typeof filter === 'string' ? { operationId: filter } : (filter ?? {});
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v !== undefined) q.set(k, k === 'body' ? JSON.stringify(v) : String(v));
  if (limit !== undefined) q.set('limit', String(limit));
  const text = q.toString();
  return text ? `?${text}` : '';
}

/**
 * One request to a control plane's route `/_oz{path}` with the admin token: its JSON answer, or an
 * `OzMockError` with the error envelope's status, code and fields.
 */
export type ControlCall = <T>(method: string, path: string, body?: unknown, contentType?: string) => Promise<T>;

/** The {@link ControlCall} of the control plane at `options.url` (what `connectOzMock()` and the MCP server call). */
export function controlPlaneCall(options: ConnectOzMockOptions): ControlCall {
  const base = options.url.replace(/\/+$/, '');
  const send = options.fetch ?? ((input: string, init?: RequestInit) => fetch(input, init));
  return async <T>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> => {
    const headers: Record<string, string> = { authorization: `Bearer ${options.adminToken}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = contentType;
    const res = await send(`${base}/_oz${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!res.ok) {
      const e = (parsed as { error?: Record<string, unknown> } | undefined)?.error;
      const { code, message, missing, hint, contract, connect, ...extra } = e ?? {};
      throw new OzMockError(
        res.status,
        typeof code === 'string' ? code : 'unknown_error',
        typeof message === 'string' ? message : `HTTP ${res.status} from ${method} /_oz${path}`,
        {
          ...(Array.isArray(missing) ? { missing: missing as string[] } : {}),
          ...(typeof hint === 'string' ? { hint } : {}),
          ...(typeof contract === 'string' ? { contract } : {}),
          ...(connect ? { connect: connect as never } : {}),
          extra,
        },
      );
    }
    return parsed as T;
  };
}

/** A chaos rule as it crosses HTTP: a RegExp `path` as its `pathPattern`. */
function portableRule(rule: ChaosDocument['rules'][number]): unknown {
  const path = rule?.match?.path;
  if (!(path instanceof RegExp)) return rule;
  const { path: _, ...match } = rule.match!;
  return { ...rule, match: { ...match, pathPattern: path.source } };
}

/**
 * A typed client of a running `oz-mock`'s control plane (`/_oz/`): faults, clock, journal, reset, baseline,
 * fixtures and state with the in-process server's shape (see {@link OzControls}), plus keys, items, the
 * dashboard and settings. An error answer throws an `OzMockError` with the envelope's status, code and fields.
 *
 * @example
 * ```ts
 * const mock = connectOzMock({ url: 'http://127.0.0.1:4010', adminToken: process.env.OZ_MOCK_ADMIN_TOKEN! });
 * await mock.faults.add({ operationId: 'executeTool', type: 'error', status: 503, code: 'upstream_error' });
 * ```
 */
export function connectOzMock(options: ConnectOzMockOptions): OzMockClient {
  const base = options.url.replace(/\/+$/, '');
  const call = controlPlaneCall(options);
  return {
    ...remoteControls(base, call, ''),
    saveState: () => call<{ path: string }>('POST', '/state/save').then((r) => r.path),
    dashboard: {
      signInAs: async (account, o = {}) =>
        void (await call('POST', '/dashboard/sign-in-as', {
          account,
          ...(o.keyExpiryDays !== undefined ? { key_expiry_days: o.keyExpiryDays } : {}),
          ...(o.keyName !== undefined ? { key_name: o.keyName } : {}),
        })),
    },
    settings: () => call<OzSettings>('GET', '/settings'),
    updateSettings: (patch) => call<OzSettings>('PATCH', '/settings', patch),
    async session(o = {}) {
      const created = await call<SessionView>('POST', '/sessions', o);
      const prefix = `/sessions/${encodeURIComponent(created.id)}`;
      const { keys, ...controls } = remoteControls(base, call, prefix);
      const demoKey = created.api_key;
      return {
        ...controls,
        addKey: keys.add,
        revokeKey: keys.revoke,
        listKeys: keys.list,
        id: created.id,
        get apiKey(): string {
          if (demoKey === null) throw new OzNoDemoKeyError(created.id);
          return demoKey;
        },
        keys: created.keys.map((k) => ({ id: k.id, account: k.account, name: k.name, kind: k.kind, apiKey: k.api_key, value: k.api_key })),
        close: () => call('DELETE', prefix).then(() => undefined, ignoreNotFound),
      };
    },
  };
}

function accountQuery(o: { readonly account?: string }): string {
  return o.account === undefined ? '' : `?account=${encodeURIComponent(o.account)}`;
}

/** A 404 of something already gone is no failure when withdrawing it. */
function ignoreNotFound(err: unknown): undefined | Promise<never> {
  if (err instanceof OzMockError && err.status === 404) return undefined;
  return Promise.reject(err);
}

/** The journal's controls over the control plane's `/journal` routes. */
function remoteJournal(call: ControlCall): OzMockControls['journal'] {
  // The headers as the in-process journal keeps them: a record without a prototype (`headers.constructor` is no header).
  const filter = (f: PortableJournalFilter | OperationId, limit?: number) =>
    call<{ data: JournalEntryView[] }>('GET', `/journal${journalQuery(f, limit)}`).then((r) =>
      r.data.map((e) => ({ ...e, headers: Object.assign(Object.create(null) as Record<string, string>, e.headers) })),
    );
  return {
    entries: () => filter({}),
    filter,
    last: (f = {}) => filter(f, 1).then((list) => list[0]),
    count: (f = {}) => filter(f).then((list) => list.length),
    clear: async () => void (await call('DELETE', '/journal')),
    toHAR: (f) => {
      const query = journalQuery(f);
      return call<Har>('GET', `/journal${query ? `${query}&` : '?'}format=har`);
    },
    async verify(f, o = {}) {
      const body = { ...(typeof f === 'string' ? { operationId: f } : f), ...(o.times === undefined ? {} : { times: o.times }) };
      try {
        await call('POST', '/journal/verify', body);
      } catch (err) {
        if (!(err instanceof OzMockError) || err.code !== 'verification_failed') throw err;
        const extra = (err.fields.extra ?? {}) as { count?: number; times?: number | null; nearMisses?: NearMiss[] };
        throw new OzVerificationError(err.message, { count: extra.count ?? 0, times: extra.times ?? null, nearMisses: extra.nearMisses ?? [] });
      }
    },
  };
}

/** The keys' controls over the control plane's `/keys` routes. */
function remoteKeys(call: ControlCall): OzMockControls['keys'] {
  return {
    async add(o) {
      const { apiKey, key, api_key, value, expiresInDays, expires_in_days, ...rest } = o;
      const given = apiKey ?? key ?? api_key ?? value;
      const days = expiresInDays !== undefined ? expiresInDays : expires_in_days;
      const body = { ...rest, ...(given !== undefined ? { api_key: given } : {}), ...(days !== undefined ? { expires_in_days: days } : {}) };
      const { api_key: created, ...fields } = await call<Omit<CreatedKey, 'apiKey'> & { api_key: string }>('POST', '/keys', body);
      return { ...fields, apiKey: created };
    },
    list: (o = {}) => call<{ data: KeyView[] }>('GET', `/keys${accountQuery(o)}`).then((r) => r.data),
    revoke: async (id) => void (await call('POST', `/keys/${encodeURIComponent(id)}/revoke`)),
  };
}

/** The controls of the routes under `/_oz{prefix}`: the server's own (prefix ''), or a session's. */
function remoteControls(base: string, send: ControlCall, prefix: string): OzMockControls {
  const call: ControlCall = (method, path, body, contentType) => send(method, `${prefix}${path}`, body, contentType);
  const idle = async (o: { timeoutMs?: number } = {}) => void (await call('POST', '/idle', o.timeoutMs === undefined ? {} : { timeout_ms: o.timeoutMs }));
  const withdraw = (path: string) => () => call('DELETE', path).then(() => undefined, ignoreNotFound);

  return {
    url: base,
    reset: async (o?: OzResetOptions) => void (await (o === undefined ? call('POST', '/reset') : call('POST', '/reset', o))),
    coverage: () => call<OzCoverageReport>('GET', '/coverage'),
    baseline: async () => void (await call('POST', '/baseline')),
    loadFixtures: (doc) =>
      call<FixtureSummary>('POST', '/fixtures', doc, typeof doc === 'string' && !doc.trimStart().startsWith('{') ? 'application/yaml' : 'application/json'),
    exportState: () => call<OzStateDocument>('GET', '/state'),
    importState: async (doc) => void (await call('PUT', '/state', doc)),
    idle,
    faults: {
      async add(fault) {
        if (typeof (fault as { body?: unknown }).body === 'function') throw new TypeError('A body predicate cannot cross HTTP: give an object of fields.');
        const { path, ...rest } = fault;
        const body = path instanceof RegExp ? { ...rest, pathPattern: path.source } : fault;
        const created = await call<RemoteFault>('POST', '/faults', body);
        return { id: created.id, cancel: withdraw(`/faults/${encodeURIComponent(created.id)}`) };
      },
      clear: async () => void (await call('DELETE', '/faults')),
      list: () => call<{ data: RemoteFault[] }>('GET', '/faults').then((r) => r.data),
    },
    chaos: {
      async set(doc) {
        const rules = Array.isArray(doc?.rules) ? doc.rules.map(portableRule) : doc?.rules;
        await call('PUT', '/chaos', { ...doc, rules });
      },
      get: () => call<{ chaos: ChaosDocument | null }>('GET', '/chaos').then((r) => r.chaos),
      clear: async () => void (await call('DELETE', '/chaos')),
    },
    stubs: {
      async add(stub: StubSpec | PortableUncheckedStubSpec) {
        if (typeof (stub as { respond?: unknown }).respond === 'function') throw new TypeError('A respond function cannot cross HTTP: give answer.');
        const created = await call<StubView>('POST', '/stubs', stub);
        return { id: created.id, cancel: withdraw(`/stubs/${encodeURIComponent(created.id)}`) };
      },
      clear: async () => void (await call('DELETE', '/stubs')),
      list: () => call<{ data: StubView[] }>('GET', '/stubs').then((r) => r.data),
    },
    unused: () => call<{ faults: Array<RemoteFault & NearMissed>; stubs: Array<StubView & NearMissed> }>('GET', '/unused'),
    clock: {
      now: () => call<RemoteClock>('GET', '/clock').then((c) => c.now_ms),
      get: () => call<RemoteClock>('GET', '/clock'),
      advance: async (ms) => void (await call('POST', '/clock/advance', { ms })),
      set: (now) => call<RemoteClock>('POST', '/clock', { now: typeof now === 'string' ? now : now.toISOString() }),
    },
    journal: remoteJournal(call),
    keys: remoteKeys(call),
    connections: {
      link: (account, provider, o = {}) => call<ConnectionView>('POST', '/connections', { account, provider, ...o }),
      list: (o = {}) => call<{ data: ConnectionView[] }>('GET', `/connections${accountQuery(o)}`).then((r) => r.data),
      unlink: async (account, provider) => void (await call('DELETE', `/connections/${encodeURIComponent(account)}/${encodeURIComponent(provider)}`)),
    },
    items: {
      park: (id, reason) => call<Item>('POST', `/items/${encodeURIComponent(id)}/park`, { reason }),
      pause: (id) => call<Item>('POST', `/items/${encodeURIComponent(id)}/pause`),
      resume: (id) => call<Item>('POST', `/items/${encodeURIComponent(id)}/resume`),
      update: (id, patch) => call<Item>('PATCH', `/items/${encodeURIComponent(id)}`, patch),
    },
  };
}
