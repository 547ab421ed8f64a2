import type { Faults, FaultSpec } from '../../harness/faults.js';
import type { Stubs, StubView } from './stubs.js';

/** An armed fault, with its id, the times it still applies and its hits (0 when listed as unused). */
export type ArmedFaultView = FaultSpec & { readonly id: string; readonly remaining: number; readonly hits: number };

/** The faults and stubs armed and never used (see `server.unused()`, `GET /_oz/unused`). */
export interface OzUnused {
  readonly faults: readonly ArmedFaultView[];
  readonly stubs: readonly StubView[];
}

/** What of a world's faults and stubs never fired. */
export function unusedOf(core: { readonly faults: Faults; readonly stubs: Stubs }): OzUnused {
  return {
    faults: core.faults.list.filter((a) => a.hits === 0).map((a) => ({ ...a.spec, id: a.id, remaining: a.remaining, hits: a.hits })),
    stubs: core.stubs.list().filter((s) => s.hits === 0),
  };
}
