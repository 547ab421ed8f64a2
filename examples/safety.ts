/**
 * What the client refuses to do with careless or hostile input: path parameters that climb out of their route,
 * header values that would inject a header, redirects to another origin (which would carry the key), and streams
 * that never end or send one endless event.
 *
 *   node --import tsx examples/safety.ts
 *
 * Uses the embedded Oz server in process.
 */
import { Oz, OzRedirectError, OzStreamEventTooLargeError, OzUsageError } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = createOzServer();
const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch });

// #region path-segments
// A `.` or `..` segment (also percent-encoded: %2e, %2E) in a path parameter or a proxy path is refused before
// anything is sent: `tools.execute('..')` would otherwise reach POST /v1/execute.
for (const call of [() => oz.tools.execute('..', { text: 'hi' }), () => oz.proxy.delete('crm', '../../../v1/schedules/sch_1')]) {
  try {
    await call();
  } catch (error) {
    if (!(error instanceof OzUsageError)) throw error;
    console.log(`refused: ${error.message.slice(0, error.message.indexOf(' holds'))}`);
  }
}
// #endregion

// #region header-values
// A header value with CR, LF or NUL (from `defaultHeaders`, `headers` or `idempotencyKey`) is a usage error that
// names the header, never a header injection or a bare TypeError.
try {
  await oz.tools.execute('echo', { text: 'hi' }, { idempotencyKey: 'order-1\r\nx-admin: 1' });
} catch (error) {
  if (!(error instanceof OzUsageError)) throw error;
  console.log(error.message); // The header "x-trace-id" (from idempotencyKey) has a value holding a line break ...
}
// #endregion

// #region caller-mistakes
// A query value that is not a string, finite number, boolean or an array of those, and a body JSON cannot write
// (a cycle, a BigInt, a getter that throws), are usage errors saying what and where; nothing is sent.
const order: Record<string, unknown> = { text: 'hi' };
order.params = { order };
for (const call of [() => oz.tools.list({}, { query: { tag: { a: 1 } as never } }), () => oz.tools.execute('echo', order as never)]) {
  try {
    await call();
  } catch (error) {
    if (!(error instanceof OzUsageError)) throw error;
    console.log(error.message);
  }
}
// #endregion

// #region redirects
// Redirects are followed within the base URL's origin only. One to another origin is an OzRedirectError, and
// nothing (no key, no body) is sent there. Here a `fetch` that answers as a misplaced base URL would.
const moved = new Oz({
  baseURL: 'http://oz.internal.example',
  apiKey: server.apiKey,
  authHeader: 'x-api-key',
  fetch: async () => new Response(null, { status: 308, headers: { location: 'https://elsewhere.example/v1/tools' } }),
});
try {
  await moved.tools.list();
} catch (error) {
  if (!(error instanceof OzRedirectError)) throw error;
  console.log(`${error.status} to ${error.location}: not followed`);
}
// #endregion

// #region stream-bounds
// A stream may end early for three reasons, each an OzStreamInterruptedError (the run goes on: wait for it):
// no event for `idleTimeout` (pings keep the connection, not the stream), one event past `maxEventBytes`
// (16 MiB by default), or the whole stream past `streamTimeout` (no limit by default).
const bounded = oz.withOptions({ idleTimeout: 60_000, maxEventBytes: 1024 * 1024, streamTimeout: 120_000 });
const stream = await bounded.agents.execute({ agent: 'writer', user_request: 'a haiku about tea', stream: true }, { maxEventBytes: 64 });
try {
  await stream.finalText();
} catch (error) {
  if (!(error instanceof OzStreamEventTooLargeError)) throw error;
  console.log(`${error.name} after ${error.maxEventBytes} bytes; the run went on: ${(await oz.executions.wait(error.executionId!)).content}`);
}
// #endregion
await server.close();
