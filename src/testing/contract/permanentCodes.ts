import { OPENAPI_DOCUMENT } from './operations.js';

type CodeEntry = { readonly const: string; readonly 'x-oz-permanent'?: boolean };

/**
 * The error codes a retry cannot change (`x-oz-permanent` in openapi.json's `ErrorCode`, such as 503
 * `not_enabled`): their answers carry `x-should-retry: false`, so a client does not retry them.
 */
export const PERMANENT_ERROR_CODES: ReadonlySet<string> = new Set(
  (OPENAPI_DOCUMENT as { components: { schemas: { ErrorCode: { oneOf: readonly CodeEntry[] } } } }).components.schemas.ErrorCode.oneOf
    .filter((c) => c['x-oz-permanent'] === true)
    .map((c) => c.const),
);
