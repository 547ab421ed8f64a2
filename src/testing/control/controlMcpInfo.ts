import type { ControlCall } from './remote.js';
import type { SessionView } from './sessionView.js';

/** What the control plane's MCP server tells about the server it drives (`server_info`, the `instructions`). */
export type ServerAbout = Readonly<Record<string, unknown>>;

/** The URLs of the oz-mock at `url` that the control plane itself knows. */
export function serverAbout(url: string, session?: string): ServerAbout {
  const base = url.replace(/\/+$/, '');
  const mcp = session === undefined ? `${base}/_oz/mcp` : `${base}/_oz/sessions/${encodeURIComponent(session)}/mcp`;
  return {
    url: base,
    controlPlaneUrl: `${base}/_oz/`,
    controlPlaneOpenapi: `${base}/_oz/openapi.json`,
    controlMcpUrl: mcp,
    ...(session === undefined ? {} : { session }),
  };
}

/** A session's URLs and keys (its id, its copy of the demo key, every key of its own). */
export async function sessionAbout(url: string, call: ControlCall, session: string): Promise<ServerAbout> {
  const { data } = await call<{ data: SessionView[] }>('GET', '/sessions');
  const found = data.find((s) => s.id === session);
  return { ...serverAbout(url, session), apiKey: found?.api_key ?? null, keys: (found?.keys ?? []).map(({ value: _, ...key }) => key) };
}

const HOW =
  'Point the code under test at url with an API key (apiKey, or one made with add_key). Before a test: add_fault (an error, delay or dropped ' +
  'connection for matching requests), add_stub (a fixed answer for an operation), load_fixtures, set_clock or advance_clock. After it: ' +
  'list_unused names each fault and stub that never fired with its near misses (the closest requests received and the fields that ' +
  'differed); read_journal lists the requests received; verify_journal asserts them. reset goes back to the baseline. Every tool answers ' +
  "JSON (also as structuredContent); a refused call is an error result (isError) holding the control plane's error code and message.";

/** The MCP `instructions`: what oz-mock is, its URLs and keys, and how the tools fit together. */
export function mcpInstructions(about: ServerAbout): string {
  const lines = Object.entries(about)
    .filter(([, v]) => v !== null && v !== undefined && typeof v !== 'object')
    .map(([k, v]) => `  ${k}: ${String(v)}`);
  const scope =
    typeof about.session === 'string'
      ? `These tools act on the session ${about.session} alone (an isolated world: its own keys, journal, faults, stubs and clock). `
      : '';
  return [
    `oz-mock, an in-memory Oz server for tests; these tools drive its control plane (${String(about.controlPlaneUrl)}).`,
    ...lines,
    `${scope}${HOW}`,
    'server_info answers these URLs and keys again.',
  ].join('\n');
}
