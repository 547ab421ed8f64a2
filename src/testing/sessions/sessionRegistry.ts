import type { DashboardWorld } from '../mounts/dashboardStep.js';
import type { ControlTarget, SessionDirectory } from '../control/controlPlane.js';
import { hashKey } from '../state/apiKeys.js';
import { OzMockError } from '../contract/errors.js';
import { OzNoDemoKeyError } from '../contract/noDemoKeyError.js';
import { randomAlnum } from '../support/ids.js';
import type { ServerParts } from '../parts/serverParts.js';
import type { ServerData } from '../state/state.js';
import type { Store } from '../state/store.js';
import type { Catalog } from '../state/catalog.js';
import { rekey } from './rekey.js';
import type { OzSession, OzSessionControls, OzSessionOptions } from '../public/ozServer.js';

/** A world a session is: its controls, its parts and dashboard (what the chain's steps work on), its control-plane target. */
export interface SessionWorld extends DashboardWorld {
  readonly controls: OzSessionControls;
  readonly parts: ServerParts;
  readonly target: ControlTarget;
  /** Stops the world's timers and work. */
  close(): Promise<void>;
}

/** A copy of a baseline: data and catalog. */
export interface BaselineCopy {
  readonly data: ServerData;
  readonly catalog: Catalog;
}

/** Makes a world from a copy of the baseline (its keys already new) and the session's options. */
export type SessionWorldFactory = (start: BaselineCopy, options: OzSessionOptions) => SessionWorld;

interface LiveSession {
  readonly session: OzSession;
  readonly world: SessionWorld;
}

function checkOptions(options: unknown): asserts options is OzSessionOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new TypeError('Session options are an object: { fixtures, clock }');
  for (const k of Object.keys(options)) if (k !== 'fixtures' && k !== 'clock') throw new TypeError(`${k} is not a session option (known: fixtures, clock)`);
  const clock = (options as { clock?: unknown }).clock;
  if (clock === undefined) return;
  if (typeof clock !== 'object' || clock === null) throw new TypeError('clock must be an object: { start, frozen }');
  for (const k of Object.keys(clock)) if (k !== 'start' && k !== 'frozen') throw new TypeError(`clock.${k} is not a field (known: start, frozen)`);
  const { frozen } = clock as { frozen?: unknown };
  if (frozen !== undefined && typeof frozen !== 'boolean') throw new TypeError('clock.frozen must be true or false');
}

/**
 * The live sessions of one server: it makes them from the baseline, finds the one a request's key belongs to,
 * and ends them. At most `max` live at once: past it, 429 `rate_limited`.
 */
export class SessionRegistry implements SessionDirectory {
  readonly #live = new Map<string, LiveSession>();

  constructor(
    readonly max: number,
    readonly factory: SessionWorldFactory,
    /** A copy of the server's baseline (the registry gives its keys new values). */
    readonly baseline: () => BaselineCopy,
    /** The demo platform key of the server, to name the session's copy of it. */
    readonly demoKey: string | null,
  ) {}

  get size(): number {
    return this.#live.size;
  }

  /** Makes a session (a `TypeError` for bad options, 429 past the bound). */
  create(options: OzSessionOptions = {}): OzSession {
    checkOptions(options);
    if (this.#live.size >= this.max) {
      throw new OzMockError(
        429,
        'rate_limited',
        `${this.max} sessions are live, the most this server keeps (--max-sessions): end one first (session.close(), DELETE /_oz/sessions/{id}).`,
        { retryAfter: 1 },
      );
    }
    const start = this.baseline();
    const demoId = this.demoKey === null ? undefined : start.data.keyByHash.get(hashKey(this.demoKey));
    const keys = rekey(start.data);
    const world = this.factory(start, options);
    const id = `ses_${randomAlnum(24)}`;
    const demoKey = keys.find((k) => k.id === demoId)?.apiKey;
    const session: OzSession = {
      ...world.controls,
      id,
      get apiKey(): string {
        if (demoKey === undefined) throw new OzNoDemoKeyError(id);
        return demoKey;
      },
      keys,
      close: () => this.end(id).then(() => undefined),
    };
    this.#live.set(id, { session, world });
    return session;
  }

  /** Ends a session; answers whether it was live. */
  async end(id: string): Promise<boolean> {
    const live = this.#live.get(id);
    if (!live) return false;
    this.#live.delete(id);
    await live.world.close();
    return true;
  }

  /** A live session, or `undefined`. */
  get(id: string): OzSession | undefined {
    return this.#live.get(id)?.session;
  }

  /** A live session's control-plane target, or 404 `session_not_found`. */
  target(id: string): ControlTarget {
    const live = this.#live.get(id);
    if (!live) throw new OzMockError(404, 'session_not_found', `No live session ${id}.`);
    return live.world.target;
  }

  list(): OzSession[] {
    return [...this.#live.values()].map((l) => l.session);
  }

  /** The world whose keys hold a key value, or `null` (the default session). */
  worldOf(keyValue: string): SessionWorld | null {
    return this.#holder(hashKey(keyValue), null);
  }

  /** Whether a live session other than the one of `except` holds a key's hash. */
  holdsKey(hash: string, except: Store | null): boolean {
    return this.#holder(hash, except) !== null;
  }

  #holder(hash: string, except: Store | null): SessionWorld | null {
    for (const { world } of this.#live.values()) if (world.parts.store !== except && world.parts.store.data.keyByHash.has(hash)) return world;
    return null;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.#live.keys()].map((id) => this.end(id)));
  }
}
