import type { Operation, Plane } from './operation.js';
import type { AuthHeader } from './requestOptions.js';

/** The header that carries the key for one operation, or undefined where the operation takes no key. */
export function authHeaderFor(op: Operation, apiKey: string, choice: AuthHeader): readonly [string, string] | undefined {
  if (op.auth === 'none') return undefined;
  // X-API-Key is accepted only on the execution planes and MCP; the models plane answers it 401.
  if (choice === 'x-api-key' && op.auth === 'bearer-or-api-key') return ['x-api-key', apiKey];
  return ['authorization', `Bearer ${apiKey}`];
}

/**
 * The only plane a legacy key opens (`sk-mdl-`: models, `sk-prx-`: the connector proxy, another `sk-` key:
 * unknown), or undefined for a key that is not a legacy key.
 */
export function legacyKeyPlane(apiKey: string): 'models' | 'proxy' | 'unknown' | undefined {
  if (!apiKey.startsWith('sk-')) return undefined;
  if (apiKey.startsWith('sk-mdl-')) return 'models';
  if (apiKey.startsWith('sk-prx-')) return 'proxy';
  return 'unknown';
}

/** A legacy key used outside the one plane it opens. */
export function isLegacyKeyOffPlane(apiKey: string, plane: Plane): 'models' | 'proxy' | 'unknown' | undefined {
  const own = legacyKeyPlane(apiKey);
  return own !== undefined && own !== plane ? own : undefined;
}
