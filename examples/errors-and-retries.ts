/**
 * Errors and retries: typed errors for every error code, the 424 `connect` link, and the retries the SDK makes
 * on its own (connection errors, timeouts, 408, 429, 5xx; never 409, 424 or other 4xx).
 *
 *   node --import tsx examples/errors-and-retries.ts
 *
 * The failures here are injected with the embedded server's `faults`, so this example always uses it.
 */
import { ApprovalRequiredError, ConnectionRequiredError, InternalError, Http5xxError, OzAPIError, OzConnectionError, Oz, RateLimitedError } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = createOzServer();
const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off' });

// #region typed
try {
  await oz.agents.execute({ agent: 'approver', user_request: 'refund order 1042' });
} catch (error) {
  if (error instanceof ApprovalRequiredError) {
    // One class per error code, under one class per status (Http409Error) and OzAPIError.
    console.log(error.status, error.code, error.hint); // 409 approval_required Resend it with approved: true ...
    console.log(error.requestId, error.executionId); // req_... exe_...
  } else if (error instanceof OzAPIError) {
    console.log(`${error.status} ${error.code}: ${error.message}`); // any other answer of the service
  } else {
    throw error; // OzConnectionError, OzTimeoutError, OzAbortError, ...
  }
}
// #endregion

// #region connect
// A tool that needs an account connection answers 424 with `connect`: where the connection is made.
const lookup = () => oz.tools.execute('crm_lookup', { query: 'ada@example.com' });
try {
  await lookup();
} catch (error) {
  if (!(error instanceof ConnectionRequiredError)) throw error;
  console.log(error.connect); // { provider: 'crm', method: 'oauth', link: 'POST /v1/connections/crm/link' }
  const connection = await oz.connections.link(error.connect.provider);
  console.log(connection.status, connection.url); // pending https://...: the account holder consents there
}
// #endregion
// #region connect-retry
// The account holder consents at connection.url; here the embedded server stands in for them (in a test, too).
server.linkConnection('demo', 'crm');
// Once the connection is linked, the same call goes through.
console.log((await lookup()).content); // CRM contact for ada@example.com: found, customer since 2024.
// #endregion

// #region retries
// The embedded server's faults make the failures here (see docs/faults.md).
// Two 500s, then success: the SDK retried twice (the default) with the same x-trace-id, so the run happened once.
server.faults.add({ operationId: 'executeTool', type: 'error', status: 500, code: 'internal_error', retryAfter: 0, times: 2 });
const retried = await oz.tools.execute('echo', { text: 'third time lucky' });
console.log(
  retried.content,
  server.journal
    .filter('executeTool')
    .slice(-3)
    .map((entry) => entry.status),
); // [ 500, 500, 200 ]
// #endregion

// #region no-retry
// Turn retries off for one call (or for the client: new Oz({ maxRetries: 0 })).
server.faults.add({ operationId: 'executeTool', type: 'error', status: 500, code: 'internal_error' });
try {
  await oz.tools.execute('echo', { text: 'once only' }, { maxRetries: 0 });
} catch (error) {
  if (!(error instanceof InternalError)) throw error;
  console.log(error instanceof Http5xxError, error.status, error.code); // true 500 internal_error
}
// #endregion

// #region retry-after
// A 429 asking for more than 60 s is not waited out inside the call: it throws, and Retry-After tells when to come back.
server.faults.add({ operationId: 'executeTool', type: 'error', status: 429, code: 'rate_limited', retryAfter: 3600 });
try {
  await oz.tools.execute('echo', { text: 'too much' });
} catch (error) {
  if (!(error instanceof RateLimitedError)) throw error;
  console.log(error.code, 'retry after', error.headers.get('retry-after'), 's'); // rate_limited retry after 3600 s
}
// #endregion

// #region retry-policy
// The retry policy, on the client, withOptions() or one call (each field over the one before): the backoff, the
// longest Retry-After waited, shouldRetry(error, attempt) to force or forbid a retry, onRetry to observe them.
const patient = oz.withOptions({
  maxRetries: 4,
  retry: {
    initialDelayMs: 100, // then 200, 400, ... (default 500)
    maxDelayMs: 2_000, // default 8000
    jitter: 0, // default 0.25: up to a quarter of each wait taken off at random
    maxRetryAfterMs: 10_000, // default 60000
    shouldRetry: (error) => (error instanceof ApprovalRequiredError ? false : undefined), // undefined: the SDK decides
    onRetry: ({ operationId, attempt, delayMs, error }) => console.log(`${operationId} attempt ${attempt} ${error.name}: again in ${delayMs} ms`),
  },
});
server.faults.add({ operationId: 'executeTool', type: 'error', status: 502, code: 'upstream_error', times: 2 });
console.log((await patient.tools.execute('echo', { text: 'patience' })).content);
// executeTool attempt 0 UpstreamError: again in 100 ms
// executeTool attempt 1 UpstreamError: again in 200 ms
// patience
// An answer may say itself: `x-should-retry: false` forbids the retry of a 5xx, `true` forces one (never of a 409
// or a 424: only shouldRetry may). Every attempt carries `x-oz-retry-count` (0 on the first).
console.log(
  server.journal
    .filter('executeTool')
    .slice(-3)
    .map((entry) => entry.headers['x-oz-retry-count']),
); // [ '0', '1', '2' ]
// #endregion

// #region connection-error
// A dropped connection is an OzConnectionError (retried like a 5xx; here with retries off).
server.faults.add({ operationId: 'executeTool', type: 'drop' });
try {
  await oz.tools.execute('echo', { text: 'dropped' }, { maxRetries: 0 });
} catch (error) {
  if (!(error instanceof OzConnectionError)) throw error;
  console.log(error.name, error.message);
}
// #endregion

await server.close();
