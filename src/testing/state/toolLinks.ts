import type { CatalogTool } from './catalog.js';
import { connectionRequired, credentialRequired } from '../contract/errors.js';
import type { AccountRecord } from './state.js';

/**
 * 424 unless the account linked what the tool needs: its connection (`connection_required`) and its
 * credential (`credential_required`), each with `connect`.
 */
export function requireToolLinks(account: AccountRecord | undefined, tool: CatalogTool): void {
  const { connection, credential } = tool;
  if (connection !== null && account?.connections.get(connection)?.status !== 'linked') throw connectionRequired(connection);
  if (credential !== null && account?.connections.get(credential.provider)?.status !== 'linked') {
    throw credentialRequired(credential.provider, credential.method);
  }
}
