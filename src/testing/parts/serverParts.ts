import { Faults } from '../harness/faults.js';
import { Chaos } from '../harness/chaos.js';
import { Journal } from '../harness/journal.js';
import { Coverage } from '../harness/coverage.js';
import { Stubs } from '../pipeline/stubs/stubs.js';
import { ServerEvents } from '../harness/serverEvents.js';
import { ItemWalker } from '../runs/itemWalker.js';
import { Runner } from '../runs/runner.js';
import { Scheduler } from '../runs/scheduler.js';
import { IdempotencyStore } from '../state/idempotencyStore.js';
import type { Store } from '../state/store.js';
import type { ServerClock } from '../time/clock.js';
import { StateLifetime } from '../time/stateLifetime.js';
import { WorkTracker } from '../time/workTracker.js';
import type { ResolvedServerOptions } from '../public/options.js';

/**
 * The parts of one server (one world of state), made once and wired as one plain object: each consumer takes it
 * under the narrow needs it declares (`RunsNeeds`, `SchedulerNeeds`, `ChainNeeds`,
 * `HandlerNeeds` through a request, `FixturesNeeds`, `ControlNeeds`), never this type.
 */
export interface ServerParts {
  readonly options: ResolvedServerOptions;
  readonly clock: ServerClock;
  readonly store: Store;
  readonly work: WorkTracker;
  /** The current generation of the state: reset, restore and close renew it; work started before stops. */
  readonly lifetime: StateLifetime;
  readonly runner: Runner;
  readonly walker: ItemWalker;
  readonly scheduler: Scheduler;
  readonly journal: Journal;
  readonly faults: Faults;
  /** Chaos rules: faults at a rate, drawn from a seed. */
  readonly chaos: Chaos;
  /** What the run exercised of openapi.json (`server.coverage()`). */
  readonly coverage: Coverage;
  /** Per-test answers: they answer in an operation's place. */
  readonly stubs: Stubs;
  /** The kept answers of non-run writes, by (account, `x-trace-id`). */
  readonly idempotency: IdempotencyStore;
  readonly events: ServerEvents;
}

/** Makes a server's parts over its options, clock and store, the workers wired to the parts they use. */
export function createServerParts(options: ResolvedServerOptions, clock: ServerClock, store: Store): ServerParts {
  const work = new WorkTracker();
  const lifetime = new StateLifetime();
  const runner = new Runner({ options, clock, store, work, lifetime });
  const walker = new ItemWalker({ options, clock, store, work, lifetime });
  const scheduler = new Scheduler({ clock, store, runner, lifetime });
  return {
    options,
    clock,
    store,
    work,
    lifetime,
    runner,
    walker,
    scheduler,
    journal: new Journal(options.journalLimit),
    faults: new Faults(),
    chaos: new Chaos(),
    coverage: new Coverage(),
    stubs: new Stubs(),
    idempotency: new IdempotencyStore(options.idempotencyMaxEntries),
    events: new ServerEvents(),
  };
}
