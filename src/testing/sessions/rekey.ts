import { hashKey, KEY_PREFIXES, newKeyValue } from '../apiKeys.js';
import type { KeyKind, ServerData } from '../state.js';

/** A key of a session: its new value, with what it belongs to. */
export interface SessionKey {
  /** The key's id (the same as the baseline's key it copies). */
  readonly id: string;
  readonly account: string;
  readonly name: string;
  readonly kind: KeyKind;
  /** The value to send (`ozk_...`, `sk-mdl-...`, `sk-prx-...`): only this session knows it. */
  readonly value: string;
}

/**
 * Gives every key of `data` a new value of its kind, in place (`data` is a copy of the baseline): a request's key
 * then names exactly one world. Answers the new values.
 */
export function rekey(data: ServerData): SessionKey[] {
  const keys: SessionKey[] = [];
  data.keyByHash.clear();
  for (const [id, record] of data.keys) {
    const value = newKeyValue(record.kind);
    const hash = hashKey(value);
    data.keys.set(id, { ...record, hash, preview: `${value.slice(0, KEY_PREFIXES[record.kind].length + 4)}…` });
    data.keyByHash.set(hash, id);
    keys.push({ id, account: record.account, name: record.name, kind: record.kind, value });
  }
  return keys;
}
