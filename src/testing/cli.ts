#!/usr/bin/env node
/**
 * `oz-mock`: the embedded Oz server on real sockets, for curl, other languages' clients and manual tries.
 * Prints its URL, MCP URL and keys; stops cleanly (exit 0) on SIGINT or SIGTERM.
 */
import { parseArgs } from 'node:util';
import { isPlatformKeyShape } from './apiKeys.js';
import { createOzServer } from './server.js';

const HELP = `oz-mock: an in-memory Oz server (API 2.4.0) seeded with the demo account.

Usage: oz-mock [options]

  --port <n>          API port (default 4010; 0 picks a free one)
  --mcp-port <n>      port of the MCP server's own URL (default: --port + 1, or 0 with --port 0)
  --host <addr>       address to listen on (default 127.0.0.1)
  --api-key <key>     the demo account's key, ozk_ + 32 letters or digits (default: $OZ_MOCK_API_KEY, else random)
  --models-key <key>  the legacy models-plane key, sk-mdl-... (default: random)
  --proxy-key <key>   the legacy connector-proxy key, sk-prx-... (default: random)
  --seed <demo|empty> the seed (default demo)
  --json              print one JSON line (url, mcpUrl, keys) instead of the text
  --log               print one line per request
  --keep-executions <n|all>  finished executions kept, with their traces; the earliest finished go first (default 50000)
  --keep-items <n|all>       finished items kept (default 50000)
  --journal-limit <n|all>    requests the journal keeps, the newest (default 10000)
  -h, --help          this help
`;

function fail(message: string): never {
  process.stderr.write(`oz-mock: ${message}\n`);
  process.exit(2);
}

/** A retention limit: a whole number >= 0, or `all` (keep everything). */
function keep(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (value === 'all') return Infinity;
  if (!/^\d+$/.test(value)) fail(`${name} must be a whole number >= 0, or all`);
  return Number(value);
}

function port(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) fail(`${name} must be a port number from 0 to 65535`);
  return n;
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        'mcp-port': { type: 'string' },
        host: { type: 'string' },
        'api-key': { type: 'string' },
        'models-key': { type: 'string' },
        'proxy-key': { type: 'string' },
        seed: { type: 'string' },
        json: { type: 'boolean' },
        log: { type: 'boolean' },
        'keep-executions': { type: 'string' },
        'keep-items': { type: 'string' },
        'journal-limit': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    fail(`${(err as Error).message}\n\n${HELP}`);
  }
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const apiPort = port(values.port, '--port', 4010);
  const mcpPort = port(values['mcp-port'], '--mcp-port', apiPort === 0 ? 0 : apiPort + 1);
  const apiKey = values['api-key'] ?? (process.env.OZ_MOCK_API_KEY || undefined);
  if (apiKey !== undefined && !isPlatformKeyShape(apiKey)) fail('--api-key must be ozk_ followed by 32 letters or digits');
  if (values['models-key'] !== undefined && !values['models-key'].startsWith('sk-mdl-')) fail('--models-key must start with sk-mdl-');
  if (values['proxy-key'] !== undefined && !values['proxy-key'].startsWith('sk-prx-')) fail('--proxy-key must start with sk-prx-');
  const seed = values.seed ?? 'demo';
  if (seed !== 'demo' && seed !== 'empty') fail('--seed must be demo or empty');

  const retention = { executions: keep(values['keep-executions'], '--keep-executions'), items: keep(values['keep-items'], '--keep-items') };
  const journalLimit = keep(values['journal-limit'], '--journal-limit');

  const server = createOzServer({ seed, apiKey, modelsKey: values['models-key'], proxyKey: values['proxy-key'], retention, journalLimit });
  let listener;
  try {
    listener = await server.listen({ port: apiPort, mcpPort, host: values.host ?? '127.0.0.1' });
  } catch (err) {
    process.stderr.write(`oz-mock: cannot listen: ${(err as Error).message}\n`);
    process.exit(1);
  }
  // Handlers first: the printed URL tells a caller it may signal us now.
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void listener
      .close()
      .then(() => server.close())
      .then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (values.log) {
    server.onResponse((e) => process.stdout.write(`${e.journal.method} ${e.journal.path} ${e.response.status} ${e.operationId ?? ''}\n`));
  }
  const { keys } = server;
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ url: listener.url, mcpUrl: listener.mcpUrl, dashboardUrl: listener.dashboardUrl, seed, apiKey: keys.apiKey, modelsKey: keys.modelsKey, proxyKey: keys.proxyKey, otherApiKey: keys.otherApiKey })}\n`);
  } else {
    const demo = seed === 'demo';
    process.stdout.write(
      [
        `oz-mock: the Oz API 2.4.0 in memory (seed: ${seed})`,
        `  OZ_BASE_URL=${listener.url}`,
        `  OZ_MCP_URL=${listener.mcpUrl}`,
        `  OZ_DASHBOARD_URL=${listener.dashboardUrl}   (command-line sign-in)`,
        ...(demo
          ? [
              `  OZ_API_KEY=${keys.apiKey}   (account demo, tier pro)`,
              `  models key: ${keys.modelsKey}`,
              `  proxy key:  ${keys.proxyKey}`,
              `  account other (tier free): ${keys.otherApiKey}`,
              `Try: curl -H "Authorization: Bearer ${keys.apiKey}" ${listener.url}/v1/tools`,
            ]
          : []),
        'Stop with Ctrl+C.',
        '',
      ].join('\n'),
    );
  }
}

void main();
