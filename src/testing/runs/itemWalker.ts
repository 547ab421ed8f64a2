import { stepKey } from '../state/catalog.js';
import type { RunsNeeds } from './runner.js';
import type { BuildingRecord, ItemRecord } from '../state/state.js';

/** After this many failed attempts at one step an item is `failed`. */
export const MAX_ATTEMPTS = 3;

/** What one office run costs (micro-dollars), shown on the item and drawn from the wallet. */
export const OFFICE_RUN_MICROS = 1000;

/** Which step to make fail, and how often (see `server.items.failStep`). */
export interface StepFailure {
  readonly campus: string;
  readonly building: string;
  readonly step: string;
  /** How many attempts fail. Default 1; 3 or more makes the item `failed`. */
  readonly times?: number;
}

/**
 * Walks items of cloud buildings through their pipeline, one clock step at a time: intake, each step in
 * order (`last_output` of one is the next one's input), then `done`. A failing office raises `attempt` and is
 * retried; after {@link MAX_ATTEMPTS} the item is `failed`. A paused item holds where it is; a parked one stops.
 */
export class ItemWalker {
  readonly #failures = new Map<string, number>();
  /**
   * Items waiting for their next step, in due order: every step waits the same `stepMs`, so appending keeps
   * the order, and one clock timer serves them all (no timer per item on the hot path of item creation).
   */
  #queue: Array<{ readonly id: string; readonly dueAt: number; readonly signal: AbortSignal }> = [];
  #head = 0;
  readonly #queued = new Set<string>();
  #armed = false;

  readonly #parts: RunsNeeds;

  constructor(parts: RunsNeeds) {
    this.#parts = parts;
  }

  /** Schedules the item's next step if it walks (cloud building, active, not paused). */
  schedule(item: ItemRecord): void {
    if (item.status !== 'active' || item.paused === 1 || this.#queued.has(item.id)) return;
    this.#scheduleIn(item, this.#parts.store.data.accounts.get(item.account)?.companies.get(item.campus)?.buildings.get(item.building));
  }

  /** {@link ItemWalker.schedule} for an item whose building was just looked up (in the same step). */
  #scheduleIn(item: ItemRecord, building: BuildingRecord | undefined): void {
    if (item.status !== 'active' || item.paused === 1 || this.#queued.has(item.id)) return;
    if (building?.kind !== 'cloud') return;
    this.#queued.add(item.id);
    this.#queue.push({ id: item.id, dueAt: this.#parts.clock.now() + this.#parts.options.timing.stepMs, signal: this.#parts.lifetime.signal });
    this.#arm();
  }

  /** Makes the next attempts at a step fail. */
  failStep(failure: StepFailure): void {
    const key = `${failure.campus}/${failure.building}/${failure.step}`;
    this.#failures.set(key, (this.#failures.get(key) ?? 0) + (failure.times ?? 1));
  }

  /** Forgets the step failures still pending. */
  clearFailures(): void {
    this.#failures.clear();
  }

  /** Drops the walks of replaced data and re-schedules every walking item (after a reset or restore). */
  resumeAll(): void {
    this.#queue = [];
    this.#head = 0;
    this.#queued.clear();
    this.#armed = false;
    for (const item of this.#parts.store.data.items.values()) this.schedule(item);
  }

  #arm(): void {
    if (this.#armed || this.#head >= this.#queue.length) return;
    this.#armed = true;
    const next = this.#queue[this.#head]!;
    this.#parts.clock.timer(Math.max(0, next.dueAt - this.#parts.clock.now()), () => {
      this.#armed = false;
      this.#tick();
    });
  }

  /** Steps every item that is due. */
  #tick(): void {
    const now = this.#parts.clock.now();
    while (this.#head < this.#queue.length && this.#queue[this.#head]!.dueAt <= now) {
      const entry = this.#queue[this.#head++]!;
      this.#queued.delete(entry.id);
      if (entry.signal.aborted) continue;
      const stepped = this.#step(entry.id, entry.signal);
      if (stepped) void this.#parts.work.track(stepped);
    }
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    this.#arm();
  }

  /** One step of an item; a promise only while an office's handler works asynchronously. */
  #step(id: string, signal: AbortSignal): Promise<void> | undefined {
    const { data, catalog } = this.#parts.store;
    const item = data.items.get(id);
    if (!item || item.status !== 'active' || item.paused === 1) return undefined;
    const building = data.accounts.get(item.account)?.companies.get(item.campus)?.buildings.get(item.building);
    if (!building || building.kind !== 'cloud') return undefined;
    const steps = building.pipeline;
    if (item.step === 'intake') {
      item.step = steps[0]!.id;
      item.attempt = 0;
      this.#touch(item, false);
      this.#scheduleIn(item, building);
      return undefined;
    }
    let index = 0;
    while (index < steps.length && steps[index]!.id !== item.step) index++;
    if (index === steps.length) return undefined;
    const stepId = steps[index]!.id;
    const input = item.last_output ?? (item.body ? `${item.title}\n\n${item.body}` : item.title);
    // The keys below are strings made per step: looked up only when anything is held under such keys.
    if (this.#failures.size > 0) {
      const failureKey = `${item.campus}/${item.building}/${stepId}`;
      const failing = this.#failures.get(failureKey) ?? 0;
      if (failing > 0) {
        this.#failures.set(failureKey, failing - 1);
        this.#failAttempt(item);
        return undefined;
      }
    }
    const handler = catalog.steps.size > 0 ? catalog.steps.get(stepKey(item.account, item.campus, item.building, stepId)) : undefined;
    let output: string | Promise<string>;
    try {
      output = handler ? handler(input, { id: item.id, title: item.title, attempt: item.attempt }) : `${stepId}: ${input}`;
    } catch {
      this.#failAttempt(item);
      return undefined;
    }
    if (typeof output === 'string') {
      // Without a handler of its own nothing but this walk ran since the lookup: its building still holds.
      this.#advance(item, stepId, index, steps.length, steps[index + 1]?.id, output, handler ? null : building);
      return undefined;
    }
    return Promise.resolve(output).then(
      (out) => {
        // A reset or restore replaced the data while the office worked: this walk is over.
        if (!signal.aborted) this.#advance(item, stepId, index, steps.length, steps[index + 1]?.id, String(out), null);
      },
      () => {
        if (!signal.aborted) this.#failAttempt(item);
      },
    );
  }

  /** `building`: the item's building as looked up in this same step, or `null` to look it up again (after an await). */
  #advance(
    item: ItemRecord,
    stepId: string,
    index: number,
    count: number,
    nextStep: string | undefined,
    output: string,
    building: BuildingRecord | null,
  ): void {
    if (item.status !== 'active' || item.step !== stepId) return;
    this.#charge(item);
    item.last_output = output;
    item.attempt = 0;
    const last = index + 1 >= count;
    if (!last) {
      item.step = nextStep!;
    } else {
      item.step = 'done';
      item.status = 'done';
    }
    this.#touch(item, last);
    if (building === null) this.schedule(item);
    else this.#scheduleIn(item, building);
  }

  #failAttempt(item: ItemRecord): void {
    if (item.status !== 'active') return;
    item.attempt++;
    this.#charge(item);
    if (item.attempt >= MAX_ATTEMPTS) item.status = 'failed';
    this.#touch(item, item.status === 'failed');
    this.schedule(item);
  }

  #charge(item: ItemRecord): void {
    item.cost_micros += OFFICE_RUN_MICROS;
    const account = this.#parts.store.data.accounts.get(item.account);
    if (account) this.#parts.store.charge(account, OFFICE_RUN_MICROS);
  }

  /**
   * Notes the item's change. The store hears of it only when its status changed: the walk never changes the
   * fields the indexes read otherwise (its account, company, building), so a step alone moves nothing there.
   */
  #touch(item: ItemRecord, statusChanged: boolean): void {
    item.updated_at = this.#parts.clock.now();
    if (statusChanged) this.#parts.store.itemChanged(item);
  }
}
