import { bearerKey } from '../pipeline/steps/authenticate.js';
import type { Connection } from '../wire/connection.js';

/** The key a request carries (`Authorization: Bearer` or `X-API-Key`), or `null`: what selects its session. */
export function requestKey(conn: Connection): string | null {
  const authorization = conn.reader.header('authorization');
  if (authorization !== null) return bearerKey(authorization);
  return conn.reader.header('x-api-key')?.trim() || null;
}
