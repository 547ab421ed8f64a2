#!/usr/bin/env node
/**
 * `oz-mock`: the embedded Oz server on real sockets, for curl, other languages' clients and manual tries.
 * Prints its URL, MCP URL and keys; stops cleanly (exit 0) on SIGINT or SIGTERM.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isPlatformKeyShape } from './state/apiKeys.js';
import { MAX_BODY_BYTES_CEILING } from './wire/bodyLimit.js';
import { isAdminTokenShape } from './control/adminToken.js';
import { CONSOLE_PATH, consoleLink } from './control/consolePage.js';
import { OzMockError } from './contract/errors.js';
import { API_VERSION } from './contract/operations.js';
import { createOzServer } from './server.js';
import type { OzListener, OzServer } from './public/ozServer.js';
import type { OzServerOptions } from './public/options.js';
import { readStubFile } from './fixtures/stubFile.js';
import { readChaosFile } from './fixtures/chaosFile.js';
import { removeStaleTemporaries } from './support/atomicFile.js';
import { givenSecret, type GivenSecret, type SecretSource } from './support/secretSource.js';
import type { AnyOperationStub } from './pipeline/stubs/operationStub.js';
import { recordCommand, type CommandIo } from './recording/recordCommand.js';
import { parityCommand } from './parity/parityCommand.js';
import { mcpCommand } from './control/mcpCommand.js';
import { coverageFormatOf, coverageSummaryLine, renderCoverage, type CoverageFormat } from './harness/coverageFormats.js';
import { coverageShortfall } from './harness/coverageGate.js';
import { writeFileAtomic } from './support/atomicFile.js';

const HELP = `oz-mock: an in-memory Oz server (API ${API_VERSION}) seeded with the demo account.

Usage: oz-mock [options]
       oz-mock record --target URL [--out DIR] [--port N]   a recording proxy (oz-mock record --help)
       oz-mock parity --target URL [...]                    where a service and oz-mock differ (oz-mock parity --help)
       oz-mock mcp [options]                                its control plane as an MCP server on stdio (oz-mock mcp --help)

  --port <n>          API port (default 4010; 0 picks a free one)
  --mcp-port <n>      port of the MCP server's own URL (default: --port + 1, or 0 with --port 0)
  --host <addr>       address to listen on (default 127.0.0.1)
  --api-key <key>     the demo account's key, ozk_ + 32 letters or digits (default: random; see Keys below)
  --models-key <key>  the legacy models-plane key, sk-mdl-... (default: random)
  --proxy-key <key>   the legacy connector-proxy key, sk-prx-... (default: random)
  --seed <demo|empty> the seed (default demo)
  --fixtures <file>   a fixture document (JSON or YAML) added after the seed; repeatable, loaded in order,
                      part of the baseline POST /_oz/reset returns to
  --stubs <file>      stubs (a stubs.json array in the /_oz/stubs format, or a .har recording) armed at start and
                      after every reset; repeatable; answers are checked against openapi.json unless unchecked
  --chaos <file>      chaos rules (JSON or YAML: { seed, rules: [{ match, probability, fault }] }) set at
                      start and after every reset, their generator back at the seed
  --state <file>      load the state from this file at start when it exists; write it on a clean stop and on
                      POST /_oz/state/save (atomically: a temporary file, then a rename)
  --clock-start <iso> where the server clock starts (default: now)
  --frozen-clock      the clock stands still: time moves only through POST /_oz/clock/advance
  --rate-limit <n>    requests per minute per key (default 100000; 0 turns the limit off)
  --step-ms <n>       one step of an item walk, an async run's start, a workflow task (default 10)
  --token-ms <n>      between two token events of a stream (default 2)
  --poll-ms <n>       the poll interval an unfinished execution suggests (default 0: from the run's timing)
  --admin-token <t>   the control plane's token, ozadm_ + 32 letters or digits (default: random)
  --no-admin          no control plane: /_oz/ answers 404
  --json              print one JSON line (url, mcpUrl, keys) instead of the text
  --log               print one line per request
  --keep-executions <n|all>  finished executions kept, with their traces; the earliest finished go first (default 50000)
  --keep-items <n|all>       finished items kept (default 50000)
  --journal-limit <n|all>    requests the journal keeps, the newest (default 10000)
  --idempotency-max-entries <n>  answers of writes kept for replay under their x-trace-id (default 10000)
  --max-body-bytes <n>           the largest request body accepted; larger: 413 payload_too_large and the
                                 connection closed (default 10485760, 10 MiB; at most 268435456)
  --max-connections-per-address <n>  open connections one client address may hold (default 4096)
  --max-sessions <n>  sessions (POST /_oz/sessions) live at once; past it 429 rate_limited (default 64)
  --coverage <file>   at exit, write what the run exercised of openapi.json (every declared response, how many
                      requests got it, by what): .json, .html (one self-contained page) or .txt (a table)
  --min-coverage <share>  at exit, fail (exit 1, naming every missed response) when less than this share
                      (0 to 1) of the declared responses of the operations called was covered
  -h, --help          this help

Keys: each of --api-key, --models-key, --proxy-key and --admin-token may also come from
  --api-key-file <path>, --models-key-file <path>, --proxy-key-file <path>, --admin-token-file <path>
                      a file holding it on its first line (trimmed)
  OZ_MOCK_API_KEY, OZ_MOCK_MODELS_KEY, OZ_MOCK_PROXY_KEY, OZ_MOCK_ADMIN_TOKEN
                      the environment (an empty variable is unset)
  A flag beats the environment, and so does a file; a flag with its -file flag is an error (exit 2). A flag's
  value shows in process listings (ps) to every user of the machine: prefer the file or the environment.
  The start prints a key only when oz-mock made it; a given one is named by where it came from (flag, file,
  env), never shown.
`;

function fail(message: string): never {
  process.stderr.write(`oz-mock: ${message}\n`);
  process.exit(2);
}

/** A whole number from 0 (`all`: no limit, where `all` is allowed); anything else stops the start. */
function count(value: string | undefined, name: string, all = false): number | undefined {
  if (value === undefined) return undefined;
  if (all && value === 'all') return Infinity;
  if (!/^\d+$/.test(value) || Number(value) > 1e9) fail(`${name} must be a whole number ${all ? '>= 0, or all' : 'from 0'}`);
  return Number(value);
}

function port(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) fail(`${name} must be a port number from 0 to 65535`);
  return n;
}

/** The options of `oz-mock` (HELP describes each). */
const OPTIONS = {
  port: { type: 'string' },
  'mcp-port': { type: 'string' },
  host: { type: 'string' },
  'api-key': { type: 'string' },
  'models-key': { type: 'string' },
  'proxy-key': { type: 'string' },
  'api-key-file': { type: 'string' },
  'models-key-file': { type: 'string' },
  'proxy-key-file': { type: 'string' },
  seed: { type: 'string' },
  fixtures: { type: 'string', multiple: true },
  stubs: { type: 'string', multiple: true },
  chaos: { type: 'string' },
  state: { type: 'string' },
  'clock-start': { type: 'string' },
  'frozen-clock': { type: 'boolean' },
  'rate-limit': { type: 'string' },
  'step-ms': { type: 'string' },
  'token-ms': { type: 'string' },
  'poll-ms': { type: 'string' },
  'admin-token': { type: 'string' },
  'admin-token-file': { type: 'string' },
  'no-admin': { type: 'boolean' },
  json: { type: 'boolean' },
  log: { type: 'boolean' },
  'keep-executions': { type: 'string' },
  'keep-items': { type: 'string' },
  'journal-limit': { type: 'string' },
  'idempotency-max-entries': { type: 'string' },
  'max-body-bytes': { type: 'string' },
  'max-connections-per-address': { type: 'string' },
  'max-sessions': { type: 'string' },
  coverage: { type: 'string' },
  'min-coverage': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/** The options as given on the command line. */
type CliValues = ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; strict: true }>>['values'];

/** The command line's options; a malformed one stops the start with the help. */
function readArgs(args: string[]): CliValues {
  try {
    return parseArgs({ args, options: OPTIONS, strict: true }).values;
  } catch (err) {
    fail(`${(err as Error).message}\n\n${HELP}`);
  }
}

/** The keys and the token oz-mock takes, as `createOzServer` names them. */
type KeyName = 'apiKey' | 'modelsKey' | 'proxyKey' | 'adminToken';

/** Where a key came from; `generated`: oz-mock made it, and only then prints it. */
type KeySource = SecretSource | 'generated';

/** Each key's flag (its file flag is the flag and `-file`), its variable, and the shape its value must have. */
const KEYS: Readonly<
  Record<KeyName, { flag: 'api-key' | 'models-key' | 'proxy-key' | 'admin-token'; env: string; fits: (value: string) => boolean; shape: string }>
> = {
  apiKey: { flag: 'api-key', env: 'OZ_MOCK_API_KEY', fits: isPlatformKeyShape, shape: 'be ozk_ followed by 32 letters or digits' },
  modelsKey: { flag: 'models-key', env: 'OZ_MOCK_MODELS_KEY', fits: (value) => value.startsWith('sk-mdl-'), shape: 'start with sk-mdl-' },
  proxyKey: { flag: 'proxy-key', env: 'OZ_MOCK_PROXY_KEY', fits: (value) => value.startsWith('sk-prx-'), shape: 'start with sk-prx-' },
  adminToken: { flag: 'admin-token', env: 'OZ_MOCK_ADMIN_TOKEN', fits: isAdminTokenShape, shape: 'be ozadm_ followed by 32 letters or digits' },
};

/** The keys of a start: what the server is made with, what was given (and how), where each came from. */
interface StartKeys {
  readonly options: Pick<OzServerOptions, KeyName>;
  readonly given: Readonly<Partial<Record<KeyName, GivenSecret>>>;
  /** `null`: no such key (the demo keys with `--seed empty`, the admin token with `--no-admin`). */
  readonly sources: Readonly<Record<KeyName, KeySource | null>>;
}

/** One key as given by its flag, its file or the environment, checked for its shape; a problem stops the start. */
function givenKey(values: CliValues, name: KeyName): GivenSecret | undefined {
  const { flag, env, fits, shape } = KEYS[name];
  let given: GivenSecret | undefined;
  try {
    given = givenSecret({ flag: `--${flag}`, fileFlag: `--${flag}-file`, env }, { flag: values[flag], file: values[`${flag}-file`], env: process.env[env] });
  } catch (err) {
    fail((err as Error).message);
  }
  if (given !== undefined && !fits(given.value)) fail(`${given.source === 'file' ? `${given.origin}: its first line` : given.origin} must ${shape}`);
  return given;
}

/** The keys and the admin token given (by flag, file or environment), each checked for its shape. */
function checkedKeys(values: CliValues, seed: 'demo' | 'empty'): StartKeys {
  const noAdmin = values['no-admin'] === true;
  for (const flag of ['admin-token', 'admin-token-file'] as const)
    if (noAdmin && values[flag] !== undefined) fail(`--no-admin and --${flag} exclude each other`);
  const given: Partial<Record<KeyName, GivenSecret>> = {};
  for (const name of Object.keys(KEYS) as KeyName[]) {
    // With --no-admin, an OZ_MOCK_ADMIN_TOKEN the shell happens to hold is not an error.
    const key = name === 'adminToken' && noAdmin ? undefined : givenKey(values, name);
    if (key !== undefined) given[name] = key;
  }
  const source = (name: KeyName, exists: boolean) => (exists ? (given[name]?.source ?? 'generated') : null);
  return {
    options: {
      apiKey: given.apiKey?.value,
      modelsKey: given.modelsKey?.value,
      proxyKey: given.proxyKey?.value,
      adminToken: noAdmin ? false : given.adminToken?.value,
    },
    given,
    sources: {
      apiKey: source('apiKey', seed === 'demo'),
      modelsKey: source('modelsKey', seed === 'demo'),
      proxyKey: source('proxyKey', seed === 'demo'),
      adminToken: source('adminToken', !noAdmin),
    },
  };
}

/** The bounds given (retention, journal, kept answers, body size, connections, sessions), each checked. */
function checkedBounds(values: CliValues): OzServerOptions {
  const retention = { executions: count(values['keep-executions'], '--keep-executions', true), items: count(values['keep-items'], '--keep-items', true) };
  const journalLimit = count(values['journal-limit'], '--journal-limit', true);
  const idempotencyMaxEntries = count(values['idempotency-max-entries'], '--idempotency-max-entries');
  const maxBodyBytes = count(values['max-body-bytes'], '--max-body-bytes');
  if (maxBodyBytes !== undefined && !(maxBodyBytes >= 1 && maxBodyBytes <= MAX_BODY_BYTES_CEILING))
    fail(`--max-body-bytes must be a whole number from 1 to ${MAX_BODY_BYTES_CEILING}`);
  const maxConnectionsPerAddress = count(values['max-connections-per-address'], '--max-connections-per-address');
  if (maxConnectionsPerAddress === 0) fail('--max-connections-per-address must be a whole number >= 1');
  const maxSessions = count(values['max-sessions'], '--max-sessions');
  return {
    retention,
    ...(journalLimit !== undefined ? { journalLimit } : {}),
    ...(idempotencyMaxEntries !== undefined ? { idempotencyMaxEntries } : {}),
    ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}),
    ...(maxConnectionsPerAddress !== undefined ? { maxConnectionsPerAddress } : {}),
    ...(maxSessions !== undefined ? { maxSessions } : {}),
  };
}

/** The clock, the rate limit and the timings given, each checked. */
function checkedTime(values: CliValues): OzServerOptions {
  const clockStart = values['clock-start'];
  if (clockStart !== undefined && !(/^\d{4}-\d\d-\d\dT/.test(clockStart) && !Number.isNaN(Date.parse(clockStart))))
    fail('--clock-start must be an RFC 3339 time, for example 2026-11-22T09:00:00Z');
  const rateLimit = count(values['rate-limit'], '--rate-limit');
  const timing = {
    stepMs: count(values['step-ms'], '--step-ms'),
    tokenMs: count(values['token-ms'], '--token-ms'),
    pollMs: count(values['poll-ms'], '--poll-ms'),
  };
  return {
    clock: { ...(clockStart !== undefined ? { start: clockStart } : {}), frozen: values['frozen-clock'] === true },
    ...(rateLimit !== undefined ? { rateLimit: { limit: rateLimit, windowMs: 60_000 } } : {}),
    timing: Object.fromEntries(Object.entries(timing).filter(([, v]) => v !== undefined)),
  };
}

/** A file's text; an unreadable file stops the start, naming what the file was for. */
function readStartFile(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    fail(`cannot read the ${what} file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** The stubs of the `--stubs` files, in order; a bad file stops the start. */
function readStubs(files: readonly string[]): AnyOperationStub[] {
  const stubs: AnyOperationStub[] = [];
  for (const file of files) {
    const text = readStartFile(file, 'stubs');
    try {
      stubs.push(...readStubFile(text, file));
    } catch (err) {
      fail((err as Error).message);
    }
  }
  return stubs;
}

/** The chaos document of the `--chaos` file; a bad file stops the start, naming the field. */
function readChaos(file: string | undefined): Pick<OzServerOptions, 'chaos'> {
  if (file === undefined) return {};
  try {
    return { chaos: readChaosFile(readStartFile(file, 'chaos'), file) };
  } catch (err) {
    fail((err as Error).message);
  }
}

/** The server the options describe, its stubs armed, and its keys as given. */
function serverOf(values: CliValues, seed: 'demo' | 'empty'): { server: OzServer; keys: StartKeys } {
  const keys = checkedKeys(values, seed);
  const bounds = checkedBounds(values);
  const time = checkedTime(values);
  const stubs = readStubs(values.stubs ?? []);
  const chaos = readChaos(values.chaos);
  const server = createOzServer({
    ...(stubs.length ? { stubs } : {}),
    ...chaos,
    seed,
    ...keys.options,
    ...(values.state !== undefined ? { stateFile: values.state } : {}),
    ...time,
    ...bounds,
  });
  return { server, keys };
}

/** Fixture files, then the state file: any problem stops the start (exit 2) before a file is written. */
async function loadStartFiles(server: OzServer, values: CliValues): Promise<void> {
  const problem = (file: string, err: unknown) =>
    fail(`${file}: ${err instanceof OzMockError || err instanceof SyntaxError ? err.message : (err as Error).message}`);
  for (const file of values.fixtures ?? []) {
    const text = readStartFile(file, 'fixture');
    try {
      server.loadFixtures(text);
    } catch (err) {
      problem(file, err);
    }
  }
  if (values.fixtures?.length) server.baseline();
  // A save cut short (a kill) left its temporary file beside the state file: gone at the next start.
  if (values.state !== undefined) await removeStaleTemporaries(values.state);
  if (values.state !== undefined && existsSync(values.state)) {
    const file = values.state;
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      fail(`${file}: not a state file (its JSON is unreadable or truncated: ${(err as Error).message}); it was left as it is`);
    }
    try {
      server.importState(doc as Parameters<typeof server.importState>[0]);
    } catch (err) {
      fail(`${file}: ${(err as Error).message} It was left as it is.`);
    }
  }
}

/** What to do with the coverage at exit: the file and its form, the gate's least share. */
interface CoverageAtExit {
  readonly file: { readonly path: string; readonly format: CoverageFormat } | null;
  readonly min: number | undefined;
}

/** `--coverage FILE` and `--min-coverage SHARE`, checked at start (a bad one stops it, exit 2). */
function checkedCoverage(values: CliValues): CoverageAtExit {
  const path = values.coverage;
  const format = path === undefined ? null : coverageFormatOf(path);
  if (path !== undefined && format === null) fail(`--coverage ${path}: the file's name must end with .json, .html or .txt (the form it is written in)`);
  const text = values['min-coverage'];
  const min = text === undefined ? undefined : /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  if (text !== undefined && !(min! >= 0 && min! <= 1)) fail(`--min-coverage must be a share from 0 to 1 (0.8 for 80 %), not ${JSON.stringify(text)}`);
  return { file: path === undefined ? null : { path, format: format! }, min };
}

/** At exit: writes the coverage file, then holds the run to `--min-coverage`; answers whether it passed. */
async function coverageAtExit(server: OzServer, plan: CoverageAtExit): Promise<boolean> {
  if (plan.file === null && plan.min === undefined) return true;
  const report = server.coverage();
  if (plan.file !== null) {
    await writeFileAtomic(plan.file.path, renderCoverage(report, plan.file.format));
    process.stdout.write(`oz-mock: coverage ${coverageSummaryLine(report)}: written to ${plan.file.path}\n`);
  }
  const shortfall = plan.min === undefined ? null : coverageShortfall(report, { min: plan.min });
  if (shortfall) process.stderr.write(`oz-mock: --min-coverage ${plan.min}: ${shortfall.message}\n`);
  return shortfall === null;
}

/** On SIGINT or SIGTERM: close the ports, write the state file (when given), close the server, exit. */
function stopOnSignal(server: OzServer, listener: OzListener, stateFile: string | undefined, coverage: CoverageAtExit): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    let covered = true;
    void listener
      .close()
      .then(async () => {
        if (stateFile !== undefined) await server.saveState();
      })
      .then(async () => {
        covered = await coverageAtExit(server, coverage).catch((err: unknown) => {
          process.stderr.write(`oz-mock: could not write the coverage file ${coverage.file?.path}: ${(err as Error).message}\n`);
          return false;
        });
      })
      .then(() => server.close())
      .then(
        () => process.stdout.write('', () => process.exit(covered ? 0 : 1)),
        (err: unknown) => {
          process.stderr.write(`oz-mock: could not write the state file ${stateFile}: ${(err as Error).message}\n`);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** A key's line of the banner: its value when oz-mock made it, else where it came from (never the value). */
function keyLine(label: string, value: string, given: GivenSecret | undefined, note: string): string {
  if (given === undefined) return `  ${label}${value}   (${note ? `${note}; ` : ''}generated)`;
  return `  ${label.replace(/[=:]\s*$/, '')}: from ${given.source} ${given.origin}, not printed${note ? `   (${note})` : ''}`;
}

/** The banner's lines of the control plane: its token, and the console's link (with the token only when made here). */
function adminLines(listener: OzListener, token: string, given: GivenSecret | undefined): string[] {
  return [
    keyLine('OZ_MOCK_ADMIN_TOKEN=', token, given, `control plane: ${listener.url}/_oz/, see ${listener.url}/_oz/openapi.json`),
    given === undefined ? `  console: ${consoleLink(listener.url, token)}` : `  console: ${listener.url}${CONSOLE_PATH}   (it asks for the admin token)`,
  ];
}

/** The banner's lines of the demo seed's keys, and a curl to try. */
function demoKeyLines(server: OzServer, listener: OzListener, given: StartKeys['given']): string[] {
  const { keys } = server;
  return [
    keyLine('OZ_API_KEY=', keys.apiKey, given.apiKey, 'account demo, tier pro'),
    keyLine('models key: ', keys.modelsKey, given.modelsKey, ''),
    keyLine('proxy key:  ', keys.proxyKey, given.proxyKey, ''),
    `  account other (tier free): ${keys.otherApiKey}`,
    `Try: curl -H "Authorization: Bearer ${given.apiKey === undefined ? keys.apiKey : '$OZ_API_KEY'}" ${listener.url}/v1/tools`,
  ];
}

/** The start's lines: the URLs, the control plane, the keys of the demo seed, the state file. */
function startText(server: OzServer, listener: OzListener, seed: 'demo' | 'empty', stateFile: string | undefined, keys: StartKeys): string {
  return [
    `oz-mock: the Oz API ${API_VERSION} in memory (seed: ${seed})`,
    `  OZ_BASE_URL=${listener.url}`,
    `  OZ_MCP_URL=${listener.mcpUrl}`,
    `  OZ_DASHBOARD_URL=${listener.dashboardUrl}   (command-line sign-in)`,
    ...(server.adminToken ? adminLines(listener, server.adminToken, keys.given.adminToken) : ['  control plane off (--no-admin)']),
    ...(seed === 'demo'
      ? demoKeyLines(server, listener, keys.given)
      : [`  no accounts or keys: add them with --fixtures FILE${server.adminToken ? ' or POST /_oz/fixtures' : ''}`]),
    ...(stateFile !== undefined ? [`  state file: ${stateFile} (written on a clean stop)`] : []),
    'Stop with Ctrl+C.',
    '',
  ].join('\n');
}

/**
 * What a start tells: the URLs, the seed, every key's value (given or made; `null` with `--seed empty`, the admin
 * token's with `--no-admin`) and where each came from. `--json` prints it with the given values left out;
 * `oz-mock mcp` hands all of it to its client.
 */
type StartFacts = {
  readonly url: string;
  readonly mcpUrl: string;
  readonly dashboardUrl: string;
  readonly seed: 'demo' | 'empty';
  readonly apiKey: string | null;
  readonly modelsKey: string | null;
  readonly proxyKey: string | null;
  readonly otherApiKey: string | null;
  readonly adminToken: string | null;
  readonly consoleUrl: string | null;
  readonly keySources: StartKeys['sources'];
};

function startFacts(server: OzServer, listener: OzListener, seed: 'demo' | 'empty', keys: StartKeys): StartFacts {
  const demo = seed === 'demo' ? server.keys : undefined;
  return {
    url: listener.url,
    mcpUrl: listener.mcpUrl,
    dashboardUrl: listener.dashboardUrl,
    seed,
    apiKey: demo?.apiKey ?? null,
    modelsKey: demo?.modelsKey ?? null,
    proxyKey: demo?.proxyKey ?? null,
    otherApiKey: demo?.otherApiKey ?? null,
    adminToken: server.adminToken,
    consoleUrl: server.adminToken ? consoleLink(listener.url, server.adminToken) : null,
    keySources: keys.sources,
  };
}

/** The start's one JSON line (`--json`): a given key's value is `null` (its `keySources` entry says where it came from). */
function startJson(facts: StartFacts, keys: StartKeys): string {
  const printed: Record<string, unknown> = { ...facts };
  for (const name of Object.keys(keys.given)) printed[name] = null;
  // The console's link carries the token in its fragment: a given token leaves it out (the page asks for it).
  if (keys.given.adminToken !== undefined) printed.consoleUrl = `${facts.url}${CONSOLE_PATH}`;
  return `${JSON.stringify(printed)}\n`;
}

/** `oz-mock [flags]`: starts the server, prints its start; answers what it told (nothing with `--help`). */
async function main(args: string[] = process.argv.slice(2)): Promise<StartFacts | undefined> {
  const values = readArgs(args);
  if (values.help) {
    process.stdout.write(HELP);
    return undefined;
  }
  const apiPort = port(values.port, '--port', 4010);
  const mcpPort = port(values['mcp-port'], '--mcp-port', apiPort === 0 ? 0 : apiPort + 1);
  const seed = values.seed ?? 'demo';
  if (seed !== 'demo' && seed !== 'empty') fail('--seed must be demo or empty');
  const coverage = checkedCoverage(values);
  const { server, keys } = serverOf(values, seed);
  await loadStartFiles(server, values);
  let listener: OzListener;
  try {
    listener = await server.listen({ port: apiPort, mcpPort, host: values.host ?? '127.0.0.1' });
  } catch (err) {
    process.stderr.write(`oz-mock: cannot listen: ${(err as Error).message}\n`);
    process.exit(1);
  }
  // Handlers first: the printed URL tells a caller it may signal us now.
  stopOnSignal(server, listener, values.state, coverage);
  if (values.log) {
    server.onResponse((e) => process.stdout.write(`${e.journal.method} ${e.journal.path} ${e.response.status} ${e.operationId ?? ''}\n`));
  }
  const facts = startFacts(server, listener, seed, keys);
  process.stdout.write(values.json ? startJson(facts, keys) : startText(server, listener, seed, values.state, keys));
  return facts;
}

/** The bin's process as a command sees it. */
const PROCESS_IO: CommandIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  exit: (code) => {
    // Exit once what was written reached the pipe.
    process.stdout.write('', () => process.exit(code));
  },
  onStop: (stop) => {
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  },
};

const command = process.argv[2];
if (command === 'record') void recordCommand(process.argv.slice(3), PROCESS_IO);
else if (command === 'parity') void parityCommand(process.argv.slice(3), PROCESS_IO, (options) => createOzServer(options));
else if (command === 'mcp') void mcpCommand(process.argv.slice(3), main);
else void main();
