import type { ServerClock } from './clock.js';
import type { Faults } from './faults.js';
import type { IdempotencyStore } from './idempotency.js';
import { ItemWalker } from './itemWalker.js';
import type { Journal, JournalEntry } from './journal.js';
import type { ResolvedOptions } from './options.js';
import { Runner } from './runner.js';
import { Scheduler } from './scheduler.js';
import { StateLifetime } from './stateLifetime.js';
import type { Store } from './store.js';
import type { Surface } from './connection.js';
import type { Stubs } from './stubs/stubs.js';
import type { WorkTracker } from './workTracker.js';

/** How a request was routed. */
export type RouteKind = 'operation' | 'not_found' | 'preflight' | 'method_not_allowed';

/** What {@link OzServer.onResponse} listeners get for every answer the server gives. */
export interface ResponseEvent {
  /** The operation of openapi.json, or `null` when the request matched none. */
  readonly operationId: string | null;
  /** `operation`, or what answered instead: 404 `not_found`, a CORS preflight, or 405 (GET on the MCP URL). */
  readonly route: RouteKind;
  readonly surface: Surface;
  /** The request (its body already read: see `journal.body`). */
  readonly request: Request;
  /** A clone of the answer: reading it does not disturb the client's copy. */
  readonly response: Response;
  /** The journal entry of the request. */
  readonly journal: JournalEntry;
}

/** A listener of answers. */
export type ResponseListener = (event: ResponseEvent) => void;

/** Everything a handler can reach. */
export interface ServerCore {
  readonly options: ResolvedOptions;
  readonly clock: ServerClock;
  readonly store: Store;
  readonly runner: Runner;
  readonly walker: ItemWalker;
  readonly scheduler: Scheduler;
  readonly work: WorkTracker;
  readonly journal: Journal;
  readonly faults: Faults;
  /** Per-test answers: they answer in an operation's place. */
  readonly stubs: Stubs;
  /** The kept answers of non-run writes, by (account, `x-trace-id`). */
  readonly idempotency: IdempotencyStore;
  readonly observers: Set<ResponseListener>;
  /** The current generation of the state: reset, restore and close abort its signal; work started before stops. */
  readonly lifetime: StateLifetime;
}

/** The parts a server's core is made of; the workers that reach the others through the core are made with it. */
export type ServerCoreParts = Omit<ServerCore, 'runner' | 'walker' | 'scheduler' | 'lifetime'>;

class Core implements ServerCore {
  readonly options: ResolvedOptions;
  readonly clock: ServerClock;
  readonly store: Store;
  readonly work: WorkTracker;
  readonly journal: Journal;
  readonly faults: Faults;
  readonly stubs: Stubs;
  readonly idempotency: IdempotencyStore;
  readonly observers: Set<ResponseListener>;
  readonly lifetime = new StateLifetime();
  readonly runner: Runner;
  readonly walker: ItemWalker;
  readonly scheduler: Scheduler;

  constructor(parts: ServerCoreParts) {
    this.options = parts.options;
    this.clock = parts.clock;
    this.store = parts.store;
    this.work = parts.work;
    this.journal = parts.journal;
    this.faults = parts.faults;
    this.stubs = parts.stubs;
    this.idempotency = parts.idempotency;
    this.observers = parts.observers;
    this.runner = new Runner(this);
    this.walker = new ItemWalker(this);
    this.scheduler = new Scheduler(this);
  }
}

/** A server's core: its parts, with the runner, the item walker and the scheduler working on it. */
export function createServerCore(parts: ServerCoreParts): ServerCore {
  return new Core(parts);
}
