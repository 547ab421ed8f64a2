import type { OzClockOptions } from '../clock.js';
import type { FixtureDocument } from '../control/fixtureFormat.js';
import type { OzServer } from '../server.js';
import type { SessionKey } from './rekey.js';

/** Options of {@link OzServer.session} (and of `POST /_oz/sessions`). */
export interface OzSessionOptions {
  /** Fixture documents added to the session's copy of the baseline; part of the session's own baseline. */
  readonly fixtures?: FixtureDocument | string | ReadonlyArray<FixtureDocument | string>;
  /** The session's clock. Default: the server clock's time, frozen when the server's is. */
  readonly clock?: OzClockOptions;
}

/** The controls of the server a session has too, acting on the session alone. */
export const SESSION_CONTROLS = [
  'url',
  'mcpUrl',
  'clock',
  'journal',
  'faults',
  'stubs',
  'items',
  'fetch',
  'handle',
  'onResponse',
  'idle',
  'reset',
  'baseline',
  'loadFixtures',
  'exportState',
  'importState',
  'snapshot',
  'restore',
  'unused',
  'addAccount',
  'addKey',
  'revokeKey',
  'addCompany',
  'addBuilding',
  'addTool',
  'addAgent',
  'addWorkflow',
  'linkConnection',
  'getExecution',
  'wallet',
] as const satisfies ReadonlyArray<keyof OzServer>;

/** What a session offers: the server's controls, acting on the session alone. */
export type OzSessionControls = Pick<OzServer, (typeof SESSION_CONTROLS)[number]>;

/** The session's share of a world's controls. */
export function sessionControls(server: OzServer): OzSessionControls {
  return Object.fromEntries(SESSION_CONTROLS.map((name) => [name, server[name]])) as unknown as OzSessionControls;
}

/**
 * An isolated world inside one server (see {@link OzServer.session}): a copy of the baseline with new values for
 * every key, and its own state, clock, journal, faults, stubs, idempotency store and rate limits. A request's key
 * selects its session on every mount of the server; the session's `fetch` and `handle` serve it in process.
 */
export interface OzSession extends OzSessionControls {
  /** The session's id (`ses_...`): its control routes are under `/_oz/sessions/{id}/`. */
  readonly id: string;
  /** The session's copy of the demo account's platform key, or `null` when the baseline has none. */
  readonly apiKey: string | null;
  /** The session's keys (copies of the baseline's, with new values). */
  readonly keys: readonly SessionKey[];
  /** Ends the session: its timers stop, its keys answer 401 from then on. */
  close(): Promise<void>;
}
