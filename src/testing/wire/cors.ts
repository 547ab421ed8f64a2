/** The headers a browser may read: the contract names x-request-id, X-Execution-Id and X-Error-Code. */
export const EXPOSED_HEADERS =
  'x-request-id, X-Execution-Id, X-Error-Code, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, Retry-After, retry-after-ms, x-idempotent-replayed';

/** The headers of a 204 answer to a CORS preflight (`OPTIONS`), from any origin. */
export function preflightHeaders(header: (name: string) => string | null): Record<string, string> {
  return {
    'access-control-allow-origin': header('origin') ?? '*',
    'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    'access-control-allow-headers': header('access-control-request-headers') ?? 'authorization, x-api-key, content-type, accept, x-trace-id',
    'access-control-expose-headers': EXPOSED_HEADERS,
    'access-control-max-age': '600',
    vary: 'origin, access-control-request-headers',
  };
}
