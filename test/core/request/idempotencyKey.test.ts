// The idempotency key's source of randomness: one `getRandomValues` serves 128 keys (src/core/request/idempotencyKey.ts),
// because a system call per key showed as a tenth of a call's client time; and every byte drawn serves a key.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newIdempotencyKey } from '../../../src/core/request/idempotencyKey.js';

const KEYS_PER_DRAW = 128;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('newIdempotencyKey', () => {
  it('is exe_ and 32 characters of A-Z, a-z and 0-9, a new one each time', () => {
    const keys = Array.from({ length: 3 * KEYS_PER_DRAW }, () => newIdempotencyKey());
    for (const key of keys) expect(key).toMatch(/^exe_[A-Za-z0-9]{32}$/);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('draws random bytes once for 128 keys, and again only once all 128 are used', () => {
    const draw = vi.spyOn(globalThis.crypto, 'getRandomValues');
    // Other tests of the process drew keys before: use up the pool they left, up to its next draw.
    for (let i = 0; i <= KEYS_PER_DRAW && draw.mock.calls.length === 0; i++) newIdempotencyKey();
    expect(draw).toHaveBeenCalledTimes(1);
    for (let i = 1; i < KEYS_PER_DRAW; i++) newIdempotencyKey();
    expect(draw).toHaveBeenCalledTimes(1);
    newIdempotencyKey();
    expect(draw).toHaveBeenCalledTimes(2);
  });
});
