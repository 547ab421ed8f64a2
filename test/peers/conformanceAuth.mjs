// Preloaded (`node --import`) into the MCP conformance runner: its server mode has no option for credentials, and
// this MCP server answers 401 without a key, as the service does. Every request the runner sends to the server
// under test (both through `fetch` and through undici's `request`, which share undici's global dispatcher) gets
// the key, the way a configured MCP client sends it. Nothing else about the requests changes: Host, Origin and
// the body stay what each scenario sends.
import { Agent, setGlobalDispatcher } from 'undici';

const key = process.env.OZ_CONFORMANCE_KEY;
const origin = process.env.OZ_CONFORMANCE_ORIGIN;
if (!key || !origin) throw new Error('OZ_CONFORMANCE_KEY and OZ_CONFORMANCE_ORIGIN must be set');

function withKey(headers) {
  const value = `Bearer ${key}`;
  if (Array.isArray(headers)) {
    for (let i = 0; i < headers.length; i += 2) if (String(headers[i]).toLowerCase() === 'authorization') return headers;
    return [...headers, 'authorization', value];
  }
  const copy = { ...(headers ?? {}) };
  if (!Object.keys(copy).some((name) => name.toLowerCase() === 'authorization')) copy.authorization = value;
  return copy;
}

setGlobalDispatcher(
  new Agent().compose((dispatch) => (opts, handler) => {
    const target = typeof opts.origin === 'string' ? opts.origin : String(opts.origin ?? '');
    return dispatch(target.replace(/\/$/, '') === origin ? { ...opts, headers: withKey(opts.headers) } : opts, handler);
  }),
);
