import { invalidParams, OzMockError } from '../contract/errors.js';
import type { ConnectionRecord } from './state.js';
import { requireAccount } from './keyControls.js';
import type { Store } from './store.js';

/** An account connection as a test sees it. */
export interface ConnectionView {
  readonly account: string;
  readonly provider: string;
  readonly method: ConnectionRecord['method'];
  /** `pending` until the account holder finishes linking (the OAuth consent), then `linked`. */
  readonly status: ConnectionRecord['status'];
}

/** Options of {@link OzConnectionControls.link}. */
export interface LinkConnectionOptions {
  /** Default `oauth`. */
  readonly method?: ConnectionRecord['method'];
  /** Default `linked`, as if the account holder finished the consent. */
  readonly status?: ConnectionRecord['status'];
}

/**
 * The accounts' connections as a test drives them (`server.connections`; over HTTP `/_oz/connections`, the same
 * shapes): a bad option throws `OzMockError` 422 `invalid_params`, an unknown connection 404
 * `connection_not_found`.
 */
export interface OzConnectionControls {
  /** Links (or re-links) an account's connection to a provider. */
  link(account: string, provider: string, options?: LinkConnectionOptions): ConnectionView;
  /** The connections (of one account when `account` is given), by account then provider. */
  list(options?: { readonly account?: string }): ConnectionView[];
  /** Removes a connection: the provider's tools answer 424 `connection_required` again. */
  unlink(account: string, provider: string): void;
}

/** A provider name, as a fixture file's connections take it. */
const PROVIDER = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
const METHODS: ReadonlyArray<ConnectionRecord['method']> = ['oauth', 'api_key', 'wallet'];
const STATUSES: ReadonlyArray<ConnectionRecord['status']> = ['pending', 'linked'];

/** The in-process connection controls of a world's store (the control plane's routes call them too). */
export function connectionControls(store: () => Store): OzConnectionControls {
  return {
    link(account, provider, options = {}) {
      requireAccount(store(), account);
      if (typeof provider !== 'string' || !PROVIDER.test(provider))
        throw invalidParams('provider must be a provider name (letters, digits, _ . and -, at most 100).', ['provider']);
      if (options.method !== undefined && !METHODS.includes(options.method)) throw invalidParams(`method must be one of: ${METHODS.join(', ')}.`);
      if (options.status !== undefined && !STATUSES.includes(options.status)) throw invalidParams(`status must be one of: ${STATUSES.join(', ')}.`);
      const record = store().linkConnection(account, provider, options.method, options.status);
      return { account, provider, method: record.method, status: record.status };
    },
    list(options = {}) {
      if (options.account !== undefined) requireAccount(store(), options.account);
      const out: ConnectionView[] = [];
      for (const a of store().data.accounts.values()) {
        if (options.account !== undefined && a.name !== options.account) continue;
        for (const c of a.connections.values()) out.push({ account: a.name, provider: c.provider, method: c.method, status: c.status });
      }
      return out;
    },
    unlink(account, provider) {
      const own = store().data.accounts.get(account);
      if (!own?.connections.has(provider)) throw new OzMockError(404, 'connection_not_found', `Account ${account} has no connection ${provider}.`);
      store().unlinkConnection(account, provider);
    },
  };
}
