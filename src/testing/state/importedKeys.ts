import { OzMockError } from '../contract/errors.js';
import type { ServerData } from './state.js';

/**
 * Fits the keys of an imported state document to the server, in place. A session keeps its own key values: a key
 * of the document with the id of one of the session's keys takes the session's value, and a key of the session the
 * document lacks stays (when its account is in the document), so the key that selects the session keeps working.
 * A key value another world of the server holds is refused (422 `invalid_params` naming `keys[i].hash`): key
 * values are unique across the server.
 */
export function fitImportedKeys(data: ServerData, current: ServerData, keepOwnValues: boolean, heldElsewhere: (hash: string) => boolean): void {
  data.keyByHash.clear();
  let index = 0;
  for (const [id, record] of data.keys) {
    const own = keepOwnValues ? current.keys.get(id) : undefined;
    const fitted = own ? { ...record, hash: own.hash, preview: own.preview } : record;
    if (heldElsewhere(fitted.hash)) {
      throw new OzMockError(
        422,
        'invalid_params',
        `State document: keys[${index}].hash is a key another world of this server holds (the default world or a session); key values are unique across the server. Nothing was imported.`,
        { param: `keys[${index}].hash` },
      );
    }
    data.keys.set(id, fitted);
    data.keyByHash.set(fitted.hash, id);
    index++;
  }
  if (!keepOwnValues) return;
  for (const [id, own] of current.keys) {
    if (data.keys.has(id) || data.keyByHash.has(own.hash) || !data.accounts.has(own.account)) continue;
    data.keys.set(id, { ...own });
    data.keyByHash.set(own.hash, id);
  }
}
