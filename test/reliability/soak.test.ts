import { describe, expect, it } from 'vitest';
import { runHostileServer } from './soak/hostileServer.js';
import { runSoak } from './soak/soak.js';

describe('fault soak (short; `npm run soak` runs it for minutes)', () => {
  it('mixed calls and writes from concurrent clients over real HTTP with random faults: nothing lost, every effect once, every error typed', async () => {
    const figures = await runSoak({ calls: 400, clients: 4, concurrency: 4, faultRate: 0.6, seed: 20261121 });
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
    expect(figures.calls).toBe(400);
    // Money: every metered call's price was drawn once (a lost answer retried is not paid twice).
    expect(figures.metered).toBeGreaterThan(0);
    expect(figures.pricedMicros).toBeGreaterThan(0);
    expect(figures.spentMicros).toBe(figures.pricedMicros);
    expect(figures.results + figures.typedErrors + figures.recoveredStreams).toBe(400);
    // The soak really exercised every kind of fault and both ways of recovering a result.
    for (const kind of ['error 500', 'error 502', 'error 429', 'drop', 'lose', 'cut', 'delay']) expect(figures.faults[kind] ?? 0, kind).toBeGreaterThan(0);
    // Every kind of call was made: runs, and the writes that are not runs (creations, deletes, cancels, links).
    for (const kind of [
      'tool',
      'agent',
      'agentStream',
      'workflow',
      'workflowStream',
      'item',
      'schedule',
      'workflowCreate',
      'workflowDelete',
      'scheduleDelete',
      'link',
      'cancel',
      'chat',
      'embedding',
      'proxy',
    ]) {
      expect(figures.byKind[kind] ?? 0, kind).toBeGreaterThan(0);
    }
    // Lost answers of writes were replayed by the server (x-idempotent-replayed), not written again.
    expect(figures.replays).toBeGreaterThan(0);
    expect(figures.retries).toBeGreaterThan(0);
    expect(figures.recoveredDuplicates).toBeGreaterThan(0);
    expect(figures.recoveredStreams).toBeGreaterThan(0);
  }, 60_000);
});

describe("the soak's hostile server (short; `npm run soak` runs it beside the honest clients)", () => {
  it('oversized, compressed-bomb and aliased-YAML answers: every one a typed outcome, one request each, no crash', async () => {
    let rounds = 0;
    const figures = await runHostileServer(() => ++rounds > 10);
    expect(figures.unexpectedOutcomes).toEqual([]);
    expect({ untyped: figures.untypedErrors, unexpected: figures.unexpected }).toEqual({ untyped: 0, unexpected: 0 });
    for (const kind of ['oversized', 'br', 'gzip', 'oversizedError', 'aliasedYaml']) expect(figures.byAnswer[kind] ?? 0, kind).toBeGreaterThan(0);
    expect(figures.tooLarge).toBeGreaterThanOrEqual(8);
    expect(figures.aliasedParsed).toBeGreaterThanOrEqual(2);
  }, 60_000);
});
