import { describe, expect, it } from 'vitest';
import { StateLifetime } from '../../../src/testing/time/stateLifetime.js';

describe('StateLifetime', () => {
  it('renew() aborts the generation’s signal and calls its end listeners once; a forgotten one is not called', () => {
    const lifetime = new StateLifetime();
    const first = lifetime.signal;
    const calls: string[] = [];
    lifetime.onEnd(() => calls.push('a'));
    const forget = lifetime.onEnd(() => calls.push('b'));
    forget();
    lifetime.renew();
    expect(first.aborted).toBe(true);
    expect(lifetime.signal.aborted).toBe(false);
    expect(calls).toEqual(['a']);
    lifetime.renew();
    expect(calls).toEqual(['a']);
  });

  it('a listener added after a renew belongs to the new generation', () => {
    const lifetime = new StateLifetime();
    lifetime.renew();
    let ended = 0;
    lifetime.onEnd(() => ended++);
    expect(ended).toBe(0);
    lifetime.renew();
    expect(ended).toBe(1);
  });
});
