import { createHash } from 'node:crypto';
import { randomAlnum } from '../support/ids.js';
import type { KeyKind } from './state.js';

/** The value prefix of each kind of key. */
export const KEY_PREFIXES: Readonly<Record<KeyKind, string>> = { platform: 'ozk_', models: 'sk-mdl-', proxy: 'sk-prx-' };

/** A new key value: the kind's prefix, then 32 characters of [A-Za-z0-9]. */
export function newKeyValue(kind: KeyKind): string {
  return KEY_PREFIXES[kind] + randomAlnum(32);
}

/** The kind a key value's prefix names, or `null` for an unknown prefix. */
export function keyKindOf(value: string): KeyKind | null {
  if (value.startsWith('ozk_')) return 'platform';
  if (value.startsWith('sk-mdl-')) return 'models';
  if (value.startsWith('sk-prx-')) return 'proxy';
  return null;
}

// Hashing each request's key shows on the hot path; like the service's key cache, remember recent ones.
// Records keep only hashes: this memo lives outside the server's state and is never snapshotted.
const recentHashes = new Map<string, string>();

/** The stored hash of a key value (only the hash is kept, as the service does). */
export function hashKey(value: string): string {
  let hash = recentHashes.get(value);
  if (hash === undefined) {
    hash = createHash('sha256').update(value).digest('hex');
    if (recentHashes.size >= 1024) recentHashes.clear();
    recentHashes.set(value, hash);
  }
  return hash;
}

/** Whether a value has the shape of a platform key: `ozk_` then 32 characters of [A-Za-z0-9]. */
export function isPlatformKeyShape(value: string): boolean {
  return /^ozk_[A-Za-z0-9]{32}$/.test(value);
}

/** How listings show a key whose value is not kept: its kind's prefix and its last four characters (`ozk_…WxYz`). */
export function keyPreview(kind: KeyKind, value: string): string {
  return `${KEY_PREFIXES[kind]}…${value.slice(-4)}`;
}
