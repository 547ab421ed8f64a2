/**
 * `createServerParts`: one world's parts over the options, clock and store it is given, each part new for the
 * world (two worlds share no journal, stubs, faults or kept answers) and sized by the resolved options.
 */
import { describe, expect, it } from 'vitest';
import { createServerParts } from '../../../src/testing/parts/serverParts.js';
import { resolveServerOptions } from '../../../src/testing/public/options.js';
import { emptyData } from '../../../src/testing/state/state.js';
import { Store } from '../../../src/testing/state/store.js';
import { ServerClock } from '../../../src/testing/time/clock.js';

function partsOf(options = resolveServerOptions({})) {
  const clock = new ServerClock({ frozen: true });
  const store = new Store(emptyData(), { tools: new Map(), agents: new Map(), steps: new Map() }, clock, options.rateLimit, options.retention);
  return { clock, store, parts: createServerParts(options, clock, store) };
}

describe('createServerParts', () => {
  it('wires the options, clock and store it is given', () => {
    const options = resolveServerOptions({ seed: 'empty' });
    const { clock, store, parts } = partsOf(options);
    expect(parts.options).toBe(options);
    expect(parts.clock).toBe(clock);
    expect(parts.store).toBe(store);
  });

  it('makes every stateful part new for each world', () => {
    const a = partsOf().parts;
    const b = partsOf().parts;
    for (const name of ['work', 'lifetime', 'runner', 'walker', 'scheduler', 'journal', 'faults', 'stubs', 'idempotency', 'events'] as const) {
      expect(a[name], name).not.toBe(b[name]);
    }
  });

  it("bounds the journal by the options' journalLimit", () => {
    const { parts } = partsOf(resolveServerOptions({ journalLimit: 0 }));
    parts.journal.add({ method: 'GET', path: '/v1/tools' } as Parameters<typeof parts.journal.add>[0]);
    expect(parts.journal.filter({})).toEqual([]);
  });

  it("bounds the kept answers by the options' idempotencyMaxEntries", () => {
    const { parts } = partsOf(resolveServerOptions({ idempotencyMaxEntries: 1 }));
    parts.idempotency.claim('acc_1', 'trace-1', 'POST', '/v1/items', '{}', 0);
    parts.idempotency.claim('acc_1', 'trace-2', 'POST', '/v1/items', '{}', 0);
    expect(parts.idempotency.size).toBe(1);
  });
});
