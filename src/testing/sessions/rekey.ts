import { hashKey, keyPreview, newKeyValue } from '../state/apiKeys.js';
import type { ServerData } from '../state/state.js';
import type { SessionKey } from '../public/ozServer.js';

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
    data.keys.set(id, { ...record, hash, preview: keyPreview(record.kind, value) });
    data.keyByHash.set(hash, id);
    keys.push({ id, account: record.account, name: record.name, kind: record.kind, apiKey: value, value });
  }
  return keys;
}
