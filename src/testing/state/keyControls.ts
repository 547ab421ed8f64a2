import { invalidParams, OzMockError } from '../contract/errors.js';
import { isoTime } from '../support/isoTime.js';
import type { KeyKind, KeyRecord } from './state.js';
import type { CreatedKey, KeyOptions, Store } from './store.js';

/** A key as a listing shows it: never its value, only its prefix and last four characters (`preview`). */
export interface KeyView {
  readonly id: string;
  readonly account: string;
  readonly kind: KeyKind;
  readonly name: string;
  /** The kind's prefix and the value's last four characters (`ozk_…WxYz`). */
  readonly preview: string;
  /** RFC 3339. */
  readonly created_at: string;
  /** RFC 3339, or `null` for a key that never expires. */
  readonly expires_at: string | null;
  /** RFC 3339, or `null` while the key is not revoked. */
  readonly revoked_at: string | null;
}

/**
 * A server's keys as a test drives them (`server.keys`; over HTTP `/_oz/keys`, the same shapes): a bad option
 * throws `OzMockError` 422 `invalid_params`, an unknown key id 404 `key_not_found`.
 */
export interface OzKeyControls {
  /** Adds a key to an account; its value (`apiKey`) is answered this once (only its hash is kept). */
  add(options: KeyOptions): CreatedKey;
  /** The keys, oldest first (of one account when `account` is given), revoked ones included. */
  list(options?: { readonly account?: string }): KeyView[];
  /** Revokes a key by id: it works for the key cache's time (`keyCacheMs`), then answers 401. */
  revoke(id: string): void;
}

function keyView(record: KeyRecord): KeyView {
  return {
    id: record.id,
    account: record.account,
    kind: record.kind,
    name: record.name,
    preview: record.preview,
    created_at: isoTime(record.created_at),
    expires_at: record.expires_at === null ? null : isoTime(record.expires_at),
    revoked_at: record.revoked_at === null ? null : isoTime(record.revoked_at),
  };
}

/** The account a control names, or 422 `invalid_params` naming `field`. */
export function requireAccount(store: Store, account: unknown, field = 'account'): string {
  if (typeof account !== 'string') throw invalidParams(`${field} is required (a string).`, [field]);
  if (!store.data.accounts.has(account)) throw invalidParams(`${field} names no account: ${account}.`);
  return account;
}

/** The in-process key controls of a world's store (the control plane's key routes call them too). */
export function keyControls(store: () => Store): OzKeyControls {
  return {
    add(options) {
      requireAccount(store(), options.account);
      try {
        return store().addKey(options);
      } catch (err) {
        throw invalidParams(`${(err as Error).message}.`);
      }
    },
    list(options = {}) {
      if (options.account !== undefined) requireAccount(store(), options.account);
      return [...store().data.keys.values()].filter((k) => options.account === undefined || k.account === options.account).map(keyView);
    },
    revoke(id) {
      if (!store().data.keys.has(id)) throw new OzMockError(404, 'key_not_found', `No key ${id}.`);
      store().revokeKey(id);
    },
  };
}
