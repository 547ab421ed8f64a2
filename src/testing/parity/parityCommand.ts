import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { OzServerOptions } from '../public/options.js';
import type { OzServer } from '../public/ozServer.js';
import type { CommandIo } from '../recording/recordCommand.js';
import { UnreachableError, type ParityEndpoint } from './exchange.js';
import { DEFAULT_PARITY_NAMES, type ParityNames } from './names.js';
import { reportLines, runParity } from './parityRun.js';

/** `oz-mock parity`'s help. */
export const PARITY_HELP = `oz-mock parity: where an Oz service and oz-mock answer differently.

Usage: oz-mock parity --target URL [--api-key KEY] [--against URL --against-key KEY]
                      [--company C --building B --tool T --agent A --workflow W] [--json] [--report FILE]

  --target <url>       the service to check (required)
  --api-key <key>      its key (default: $OZ_API_KEY)
  --against <url>      the reference: another running oz-mock (default: one in this process)
  --against-key <key>  the reference's key (with --against; default: $OZ_MOCK_API_KEY)
  --company <slug>     names the target has (defaults: the demo seed's: acme, hq, echo, writer, draft-and-review)
  --building <slug>
  --tool <name>
  --agent <name>
  --workflow <name>
  --json               print the report as JSON (scenarios, summary, coverage)
  --report <file>      also write the JSON report to this file
  -h, --help           this help

Each scenario prints "same", "different" or "skipped: <why>"; each difference prints
"operationId status JSON-path: reference value ≠ target value".
Exit codes: 0 nothing differs, 1 something differs, 2 a usage error, 3 the target cannot be reached.
`;

/** Makes the in-process reference. */
export type ReferenceFactory = (options: OzServerOptions) => OzServer;

/** Runs `oz-mock parity` with its arguments (after `parity`). */
export async function parityCommand(args: readonly string[], io: CommandIo, makeReference: ReferenceFactory): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        target: { type: 'string' },
        'api-key': { type: 'string' },
        against: { type: 'string' },
        'against-key': { type: 'string' },
        company: { type: 'string' },
        building: { type: 'string' },
        tool: { type: 'string' },
        agent: { type: 'string' },
        workflow: { type: 'string' },
        json: { type: 'boolean' },
        report: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    io.err(`oz-mock parity: ${(err as Error).message}\n\n${PARITY_HELP}`);
    return io.exit(2);
  }
  if (values.help) {
    io.out(PARITY_HELP);
    return io.exit(0);
  }
  const usage = (message: string) => {
    io.err(`oz-mock parity: ${message}\n`);
    io.exit(2);
  };
  const isHttpUrl = (u: string) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol);
  if (values.target === undefined) return usage('--target URL is required (the service to check)');
  if (!isHttpUrl(values.target)) return usage(`--target must be an http or https URL, got ${values.target}`);
  if (values.against !== undefined && !isHttpUrl(values.against)) return usage(`--against must be an http or https URL, got ${values.against}`);
  const apiKey = values['api-key'] ?? process.env.OZ_API_KEY;
  if (!apiKey) return usage("--api-key KEY (or OZ_API_KEY) is required: the target's key");
  const againstKey = values['against-key'] ?? process.env.OZ_MOCK_API_KEY;
  if (values.against !== undefined && !againstKey) return usage('--against-key KEY (or OZ_MOCK_API_KEY) is required with --against');
  const names: ParityNames = {
    company: values.company ?? DEFAULT_PARITY_NAMES.company,
    building: values.building ?? DEFAULT_PARITY_NAMES.building,
    tool: values.tool ?? DEFAULT_PARITY_NAMES.tool,
    agent: values.agent ?? DEFAULT_PARITY_NAMES.agent,
    workflow: values.workflow ?? DEFAULT_PARITY_NAMES.workflow,
  };
  const target: ParityEndpoint = { url: values.target, apiKey, fetch: (r) => fetch(r) };
  const inProcess = values.against === undefined ? makeReference({}) : null;
  const reference: ParityEndpoint = inProcess
    ? { url: `${inProcess.url} (oz-mock in process)`, apiKey: inProcess.apiKey, fetch: (r) => inProcess.fetch(r) }
    : { url: values.against!, apiKey: againstKey!, fetch: (r) => fetch(r) };
  // The in-process reference answers on its own origin, whatever the URL says.
  const referenceSide: ParityEndpoint = inProcess ? { ...reference, url: inProcess.url } : reference;
  try {
    const report = { ...(await runParity({ target, reference: referenceSide, names })), reference: reference.url };
    if (values.report !== undefined) writeFileSync(values.report, `${JSON.stringify(report, null, 2)}\n`);
    io.out(values.json ? `${JSON.stringify(report, null, 2)}\n` : reportLines(report));
    io.exit(report.summary.different > 0 ? 1 : 0);
  } catch (err) {
    if (err instanceof UnreachableError) {
      io.err(`oz-mock parity: ${err.message}\n`);
      return io.exit(3);
    }
    io.err(`oz-mock parity: ${(err as Error).stack ?? String(err)}\n`);
    io.exit(1);
  } finally {
    await inProcess?.close();
  }
}
