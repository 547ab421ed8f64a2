import { OzError } from './errors.js';

/**
 * A middleware threw something that is not an `OzError` (its `cause`), or resolved to something that is not a
 * `Response`. Not retried unless `retry.shouldRetry` says so. An `OzError` a middleware throws (for example the
 * `OzConnectionError` its `next` rejected with) reaches the caller as it is.
 */
export class OzMiddlewareError extends OzError {
  override name = 'OzMiddlewareError';
  /** The position of the middleware in the chain the attempt ran (the client's first, then the call's). */
  readonly middlewareIndex: number;

  constructor(message: string, middlewareIndex: number, options?: ErrorOptions) {
    super(message, options);
    this.middlewareIndex = middlewareIndex;
  }
}
