import { describe, expect, it } from 'vitest';
import { runSoak } from './soak/soak.js';

describe('the soak under seeded chaos (10 %: declared errors, lost answers, drops)', () => {
  it("through the SDK's client over real HTTP: nothing lost, no item, run or charge doubled, every error typed", async () => {
    const figures = await runSoak({ calls: 300, clients: 4, concurrency: 4, seed: 20261207, chaos: { seed: 53, rate: 0.1 } });
    expect(figures.problems).toEqual([]);
    expect({
      lost: figures.lost,
      doubled: figures.doubled,
      untyped: figures.untypedErrors,
      mismatched: figures.mismatched,
      violations: figures.violations,
    }).toEqual({
      lost: 0,
      doubled: 0,
      untyped: 0,
      mismatched: 0,
      violations: 0,
    });
    expect(figures.calls).toBe(300);
    expect(figures.results + figures.typedErrors + figures.recoveredStreams).toBe(300);
    // Money: every metered call paid once.
    expect(figures.metered).toBeGreaterThan(0);
    expect(figures.spentMicros).toBe(figures.pricedMicros);
    // Only chaos put faults on requests, and it put every kind of its rules.
    expect(figures.chaosFired).toBeGreaterThan(0);
    expect(figures.faulted).toBe(figures.chaosFired);
    for (const kind of ['lose', 'drop']) expect(figures.faults[kind] ?? 0, kind).toBeGreaterThan(0);
    expect(Object.keys(figures.faults).filter((k) => k.startsWith('error ')).length).toBeGreaterThan(0);
    expect(figures.retries).toBeGreaterThan(0);
  }, 90_000);
});
