import type { Faults, FaultSpec } from '../../harness/faults.js';
import { faultDifferences } from '../../harness/faults.js';
import type { Journal } from '../../harness/journal.js';
import { candidates, nearMisses, type NearMiss } from '../../harness/nearMisses.js';
import { stubDifferences } from './stubNearMiss.js';
import type { Stubs, StubView } from './stubs.js';

/** An armed fault, with its id, the times it still applies and its hits (0 when listed as unused). */
export type ArmedFaultView = FaultSpec & { readonly id: string; readonly remaining: number; readonly hits: number };

/** Why something never fired: the journal entries closest to it (at most three, closest first). */
export interface NearMissed {
  /** Entries of the same operation (else the same path), each with the fields that differ. */
  readonly nearMisses: readonly NearMiss[];
}

/** The faults and stubs armed and never used (see `server.unused()`, `GET /_oz/unused`), each with its near misses. */
export interface OzUnused {
  readonly faults: ReadonlyArray<ArmedFaultView & NearMissed>;
  readonly stubs: ReadonlyArray<StubView & NearMissed>;
}

/** What of a world's faults and stubs never fired, with the requests that came closest. */
export function unusedOf(parts: { readonly faults: Faults; readonly stubs: Stubs; readonly journal: Journal }): OzUnused {
  const entries = parts.journal.entries;
  return {
    faults: parts.faults.list
      .filter((a) => a.hits === 0)
      .map((a) => ({
        ...a.spec,
        id: a.id,
        remaining: a.remaining,
        hits: a.hits,
        nearMisses: nearMisses(candidates(entries, a.spec), (e) => faultDifferences(e, a.spec)),
      })),
    stubs: parts.stubs
      .list()
      .filter((s) => s.hits === 0)
      .map((s) => ({ ...s, nearMisses: nearMisses(candidates(entries, s), (e) => stubDifferences(e, s)) })),
  };
}
