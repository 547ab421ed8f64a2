import { UnauthorizedError, type OzAPIError } from './apiErrors.js';

/**
 * 401 for a legacy key (`sk-mdl-` opens only the models plane, `sk-prx-` only the connector proxy) used on
 * another plane. The SDK decides this **after** the request: the key is sent as given, and only when the
 * service answers 401 does the SDK raise this error (instead of a bare {@link UnauthorizedError}), with the real
 * status, headers and `requestId`. The message says which plane the key opens; it never contains the key.
 */
export class LegacyKeyError extends UnauthorizedError {
  override name = 'LegacyKeyError';
  /** The plane the legacy key opens. */
  readonly keyPlane: 'models' | 'proxy' | 'unknown';
  /** The plane of the operation that was called. */
  readonly plane: string;

  constructor(source: OzAPIError, keyPlane: 'models' | 'proxy' | 'unknown', plane: string) {
    const opens = keyPlane === 'unknown' ? 'no plane but its own' : `only the ${keyPlane} plane`;
    super(source.status, source.headers, source.error, source.message);
    this.keyPlane = keyPlane;
    this.plane = plane;
    this.message =
      `${source.status} unauthorized: a legacy sk- key opens ${opens}; the ${plane} plane takes only a platform ` +
      `key (ozk_...). Create one in the dashboard's keys tab. (${source.error?.message ?? 'no message'})`;
  }
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
export function isLegacyKeyOffPlane(apiKey: string, plane: string): 'models' | 'proxy' | 'unknown' | undefined {
  const own = legacyKeyPlane(apiKey);
  return own !== undefined && own !== plane ? own : undefined;
}
