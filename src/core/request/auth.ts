import { setHeader, type HeaderRecord } from '../shared/headerValue.js';
import type { Operation } from '../shared/operation.js';
import type { AuthHeader } from '../shared/requestOptions.js';

/** The header that carries the key for one operation, or undefined where the operation takes no key. */
export function authHeaderFor(op: Operation, apiKey: string, choice: AuthHeader): readonly [string, string] | undefined {
  if (op.auth === 'none') return undefined;
  // X-API-Key is accepted only on the execution planes and MCP; the models plane answers it 401.
  if (choice === 'x-api-key' && op.auth === 'bearer-or-api-key') return ['x-api-key', apiKey];
  return ['authorization', `Bearer ${apiKey}`];
}

/** Sets the key on the header the operation's plane takes (the other credential header removed). */
export function setAuth(headers: HeaderRecord, op: Operation, apiKey: string, authHeader: AuthHeader): void {
  const auth = authHeaderFor(op, apiKey, authHeader);
  if (auth) {
    const other = auth[0] === 'authorization' ? 'x-api-key' : 'authorization';
    if (headers[other] !== undefined) delete headers[other];
    const [name, value] = auth;
    if (value === lastAuth.given) {
      headers[name] = lastAuth.sent;
    } else {
      setHeader(headers, name, value, 'apiKey');
      lastAuth = { given: value, sent: headers[name]! };
    }
  }
}

// The credential header value checked last (most processes use one key): the next call with it is not checked again.
let lastAuth: { readonly given: string | undefined; readonly sent: string } = { given: undefined, sent: '' };
