import type { Connection } from '../wire/connection.js';
import type { OperationInfo } from '../contract/operations.js';
import type { FaultSpec, Faults } from '../harness/faults.js';
import type { Chaos } from '../harness/chaos.js';
import type { Coverage } from '../harness/coverage.js';
import type { Journal, JournalEntry } from '../harness/journal.js';
import type { RouteKind, ServerEvents } from '../harness/serverEvents.js';
import type { IdempotencyStore } from '../state/idempotencyStore.js';
import type { RequestContext, HandlerNeeds } from './requestContext.js';
import type { Stubs } from './stubs/stubs.js';

/**
 * What the chain's steps work with of a world: the journal, the faults, the stubs, the kept answers and the
 * listeners around the operation, and what it hands a handler (the one plain object the composition root wires).
 */
export interface ChainNeeds extends HandlerNeeds {
  readonly journal: Journal;
  readonly faults: Faults;
  /** Rules that put a fault on a request at a rate, drawn from a seed (when no fault of `faults` took it). */
  readonly chaos: Chaos;
  readonly events: ServerEvents;
  /** Per-test answers: they answer in an operation's place. */
  readonly stubs: Stubs;
  /** The kept answers of non-run writes, by (account, `x-trace-id`). */
  readonly idempotency: IdempotencyStore;
  /** What the run exercised of openapi.json, counted as each request's entry is final. */
  readonly coverage: Coverage;
  readonly options: HandlerNeeds['options'] & { readonly maxBodyBytes: number; readonly keyCacheMs: number; readonly mcpUrl: string };
}

/** A journal entry while its request is under way: opened before the route step, which names its operation. */
export interface OpenJournalEntry extends JournalEntry {
  operationId: string | null;
}

/** A world as the chain's steps see it: its parts (the sessions step may pick another world). */
export interface ChainWorld {
  readonly parts: ChainNeeds;
}

/**
 * One request on its way through the server's chain (`SERVER_STEPS`): what the mount handed over, the server it came
 * to (`scope`: what the steps before the world use), the world it goes to, then what each step found. `S` and `W`
 * are what the steps of the upper folders read (the control plane's target, the sessions, the dashboard); a step
 * below them reads `ServerExchange` as it is.
 */
export class ServerExchange<S = unknown, W extends ChainWorld = ChainWorld> {
  /** The request's id (`x-request-id`), set by the first step. */
  requestId = '';
  /** The request's journal entry, once opened (the journal step). */
  entry: OpenJournalEntry | null = null;
  /** What the route table made of the request (the route step): an operation, a preflight, 405 or 404. */
  route: RouteKind = 'not_found';
  /** The request's fault (the fault step), acted on by the steps around it: `dribble`, `lose`, `cut`. */
  fault: FaultSpec | null = null;
  #ctx: RequestContext | null = null;
  #op: OperationInfo | null = null;

  constructor(
    readonly scope: S,
    public world: W,
    readonly request: Request,
    readonly conn: Connection,
  ) {}

  /** The request's context (the handler's `ctx`), made by the route step. */
  get ctx(): RequestContext {
    if (this.#ctx === null) throw new Error('A step read the request context before the route step made it.');
    return this.#ctx;
  }

  /** The operation the route step found. */
  get op(): OperationInfo {
    if (this.#op === null) throw new Error('A step read the operation of a request that has none.');
    return this.#op;
  }

  /** Whether the route step made the request's context (every request past the journal step has one). */
  get routed(): boolean {
    return this.#ctx !== null;
  }

  /** The route step's finding: the request's context, and its operation when it has one. */
  routeTo(route: RouteKind, ctx: RequestContext): void {
    this.route = route;
    this.#ctx = ctx;
    this.#op = ctx.op;
  }
}
