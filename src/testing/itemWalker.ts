import { stepKey } from './catalog.js';
import type { ServerCore } from './serverCore.js';
import type { ItemRecord } from './state.js';

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
  private readonly failures = new Map<string, number>();

  constructor(private readonly core: ServerCore) {}

  /** Schedules the item's next step if it walks (cloud building, active, not paused). */
  schedule(item: ItemRecord): void {
    if (item.status !== 'active' || item.paused === 1) return;
    const building = this.core.store.data.accounts.get(item.account)?.companies.get(item.campus)?.buildings.get(item.building);
    if (building?.kind !== 'cloud') return;
    const generation = this.core.generation;
    this.core.clock.timer(this.core.options.timing.stepMs, () => {
      if (generation === this.core.generation) void this.core.work.track(this.step(item.id, generation));
    });
  }

  /** Makes the next attempts at a step fail. */
  failStep(failure: StepFailure): void {
    const key = `${failure.campus}/${failure.building}/${failure.step}`;
    this.failures.set(key, (this.failures.get(key) ?? 0) + (failure.times ?? 1));
  }

  /** Forgets the step failures still pending. */
  clearFailures(): void {
    this.failures.clear();
  }

  /** Re-schedules every walking item (after a restore). */
  resumeAll(): void {
    for (const item of this.core.store.data.items.values()) this.schedule(item);
  }

  private async step(id: string, generation: number): Promise<void> {
    const { data, catalog } = this.core.store;
    const item = data.items.get(id);
    if (!item || item.status !== 'active' || item.paused === 1) return;
    const building = data.accounts.get(item.account)?.companies.get(item.campus)?.buildings.get(item.building);
    if (!building || building.kind !== 'cloud') return;
    const steps = building.pipeline;
    if (item.step === 'intake') {
      item.step = steps[0]!.id;
      item.attempt = 0;
      this.touch(item);
      this.schedule(item);
      return;
    }
    const index = steps.findIndex((s) => s.id === item.step);
    if (index < 0) return;
    const stepId = steps[index]!.id;
    const input = item.last_output ?? (item.body ? `${item.title}\n\n${item.body}` : item.title);
    let output: string;
    try {
      const failureKey = `${item.campus}/${item.building}/${stepId}`;
      const failing = this.failures.get(failureKey) ?? 0;
      if (failing > 0) {
        this.failures.set(failureKey, failing - 1);
        throw new Error(`step ${stepId} failed`);
      }
      const handler = catalog.steps.get(stepKey(item.account, item.campus, item.building, stepId));
      output = handler ? String(await handler(input, { id: item.id, title: item.title, attempt: item.attempt })) : `${stepId}: ${input}`;
    } catch {
      // A reset or restore replaced the data while the office worked: this walk is over.
      if (generation !== this.core.generation || item.status !== 'active') return;
      item.attempt++;
      this.charge(item);
      if (item.attempt >= MAX_ATTEMPTS) item.status = 'failed';
      this.touch(item);
      this.schedule(item);
      return;
    }
    if (generation !== this.core.generation || item.status !== 'active' || item.step !== stepId) return;
    this.charge(item);
    item.last_output = output;
    item.attempt = 0;
    if (index + 1 < steps.length) {
      item.step = steps[index + 1]!.id;
    } else {
      item.step = 'done';
      item.status = 'done';
    }
    this.touch(item);
    this.schedule(item);
  }

  private charge(item: ItemRecord): void {
    item.cost_micros += OFFICE_RUN_MICROS;
    const account = this.core.store.data.accounts.get(item.account);
    if (account) this.core.store.charge(account, OFFICE_RUN_MICROS);
  }

  private touch(item: ItemRecord): void {
    item.updated_at = this.core.clock.now();
  }
}
