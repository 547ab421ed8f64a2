import { OzError } from './errors.js';

/** Hops of one attempt before it fails, as fetch's own limit. */
export const MAX_REDIRECTS = 20;

/**
 * The service answered a redirect the SDK does not follow: one to another origin (another scheme, host or
 * port), so that neither the key (`Authorization` or `X-API-Key`) nor the body reach an address the client was
 * not given; one whose `Location` is not a valid http(s) URL (`location` is then undefined); more than
 * {@link MAX_REDIRECTS} hops; or a redirect the runtime does not let it read (a browser's opaque redirect). Not
 * retried: a write is never sent again. When the other origin is the service's real address (`http` to `https`, a new
 * host), pass it as `baseURL`.
 */
export class OzRedirectError extends OzError {
  override name = 'OzRedirectError';
  /** The SDK's own code of this error, for a `switch (error.code)` over a call's `result()`. */
  readonly code = 'redirect_error' as const;
  /** The redirect's status (301, 302, 303, 307 or 308; 0 for an opaque redirect). */
  readonly status: number;
  /** Where the redirect pointed (absolute), when it could be read. */
  readonly location: string | undefined;

  constructor(message: string, status: number, location: string | undefined) {
    super(message);
    this.status = status;
    this.location = location;
  }
}
