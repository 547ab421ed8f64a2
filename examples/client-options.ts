/**
 * Configuring the client: options, the environment variables they default to, per-call overrides,
 * `withOptions()`, logging, and the key kept out of logs and inspection.
 *
 *   node --import tsx examples/client-options.ts
 *
 * With OZ_BASE_URL and OZ_API_KEY set, it talks to that Oz service. Without them it first starts an embedded Oz
 * server on a free local port and points those variables at it, as `npx oz-mock` would.
 */
import { inspect } from 'node:util';
import { Oz, type JsonRequestOptions, type Logger } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = process.env.OZ_BASE_URL ? undefined : createOzServer();
if (server) {
  const listener = await server.listen();
  process.env.OZ_BASE_URL = listener.url;
  process.env.OZ_API_KEY = server.apiKey;
}
const lines: string[] = [];
const myLogger: Logger = {
  error: (message) => lines.push(`error ${message}`),
  warn: (message) => lines.push(`warn ${message}`),
  info: (message) => lines.push(`info ${message}`),
  debug: (message, ...rest) => lines.push(`debug ${message} ${JSON.stringify(rest)}`),
};

// #region options
const oz = new Oz({
  apiKey: process.env.OZ_API_KEY, // the default
  baseURL: process.env.OZ_BASE_URL, // the default; the service has no public address to fall back on
  maxRetries: 3, // default 2
  timeout: 30_000, // ms per attempt, default 600000 (10 minutes)
  defaultHeaders: { 'x-team': 'billing' },
  logLevel: 'info', // default: OZ_LOG, else 'warn'
  logger: myLogger, // default: console
});
// #endregion

// #region per-call
// The client's options for one call (headers add to defaultHeaders; null removes one), with signal, format...
const text = await oz.tools.execute(
  'echo',
  { text: 'one call' },
  { timeout: 5_000, maxRetries: 0, format: 'text', headers: { 'x-team': null }, signal: AbortSignal.timeout(10_000) },
);
console.log(text); // one call

// withOptions(): a client with some options changed, for example a stricter one for a hot path.
const strict = oz.withOptions({ maxRetries: 0, timeout: 2_000 });
console.log(strict.maxRetries, strict.timeout); // 0 2000
// #endregion

// #region logging
// Log levels: off, error, warn (default), info (retries, failed calls), debug (every request and answer).
// OZ_LOG=debug sets it without a code change. The key is scrubbed from every line, and from inspect and JSON.
await oz.withOptions({ logLevel: 'debug' }).tools.execute('echo', { text: 'logged' });
console.log(lines[0]); // debug [oz executeTool #2] POST http://.../v1/tools/echo/execute (attempt 1 of 4)
console.log(inspect(oz)); // Oz {"baseURL":"...","apiKey":"[redacted]","maxRetries":3,...}
// #endregion

// #region shared-options
// Options kept in a variable for several calls: type it JsonRequestOptions (every per-call option but `format`),
// and each result keeps its parsed type. Typed RequestOptions, whose `format` may be 'text', a result would be
// a string or the envelope until narrowed.
const quick: JsonRequestOptions = { timeout: 5_000, maxRetries: 0 };
const echoed = await oz.tools.execute('echo', { text: 'typed' }, quick);
console.log(echoed.content); // typed
// #endregion

const key = process.env.OZ_API_KEY ?? '';
console.log(`the key appears in ${lines.filter((line) => line.includes(key)).length} log lines, and in JSON: ${JSON.stringify(oz).includes(key)}`);
console.log('x-team on the call that removed it:', server?.journal.filter('executeTool')[0]?.headers['x-team'] ?? null); // null
await server?.close();
