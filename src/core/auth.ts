import type { Operation } from './operation.js';
import type { AuthHeader } from './requestOptions.js';

/** The header that carries the key for one operation, or undefined where the operation takes no key. */
export function authHeaderFor(op: Operation, apiKey: string, choice: AuthHeader): readonly [string, string] | undefined {
  if (op.auth === 'none') return undefined;
  // X-API-Key is accepted only on the execution planes and MCP; the models plane answers it 401.
  if (choice === 'x-api-key' && op.auth === 'bearer-or-api-key') return ['x-api-key', apiKey];
  return ['authorization', `Bearer ${apiKey}`];
}
