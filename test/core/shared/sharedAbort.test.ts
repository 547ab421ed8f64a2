import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { followAbort } from '../../../src/core/shared/sharedAbort.js';

const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('followAbort: one listener per signal', () => {
  it('any number of followers add one listener, removed when the last stops following', () => {
    const signal = new AbortController().signal;
    const stops = Array.from({ length: 100 }, () => followAbort(signal, () => undefined));
    expect(listeners(signal)).toBe(1);
    for (const stop of stops.slice(1)) stop();
    expect(listeners(signal)).toBe(1);
    stops[0]!();
    stops[0]!();
    expect(listeners(signal)).toBe(0);
    // Following again after every follower stopped adds the listener again.
    const again = followAbort(signal, () => undefined);
    expect(listeners(signal)).toBe(1);
    again();
    expect(listeners(signal)).toBe(0);
  });

  it('an abort runs every follower once with the reason (the same function added twice runs twice), and leaves no listener', () => {
    const controller = new AbortController();
    const seen: unknown[] = [];
    const follower = (reason: unknown) => void seen.push(reason);
    followAbort(controller.signal, follower);
    followAbort(controller.signal, follower);
    const stopped = followAbort(controller.signal, () => seen.push('stopped'));
    stopped();
    const reason = new Error('gave up');
    controller.abort(reason);
    expect(seen).toEqual([reason, reason]);
    expect(listeners(controller.signal)).toBe(0);
  });

  it('stopping after the abort is harmless, and two signals keep their followers apart', () => {
    const a = new AbortController();
    const b = new AbortController();
    let onA = 0;
    let onB = 0;
    const stopA = followAbort(a.signal, () => onA++);
    followAbort(b.signal, () => onB++);
    a.abort();
    stopA();
    expect([onA, onB]).toEqual([1, 0]);
    expect(listeners(b.signal)).toBe(1);
  });
});
