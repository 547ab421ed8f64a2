/** A flag `oz` itself reads (not a field of a request). */
export interface GlobalFlag {
  readonly name: string;
  /** Takes no value (`--stream`). */
  readonly boolean: boolean;
  /** The value's form, for help. */
  readonly value?: string;
  readonly help: string;
  /** May be given more than once. */
  readonly multiple?: boolean;
}

/** The global flags of every generated command, as the contract names them. */
export const GLOBAL_FLAGS: readonly GlobalFlag[] = [
  {
    name: 'format',
    boolean: false,
    value: 'json|yaml|markdown|text',
    help: 'the wire of the answer and of errors (default json; pretty on a terminal, one line when piped)',
  },
  { name: 'stream', boolean: true, help: 'print tokens as they arrive (events as NDJSON with --format json)' },
  { name: 'async', boolean: true, help: 'start the run and print its pointer' },
  {
    name: 'wait',
    boolean: true,
    help: 'start the run (or, on oz executions get, take the one named), wait for it (a progress line on a terminal) and print its result',
  },
  {
    name: 'wait-timeout',
    boolean: false,
    value: 'MS',
    help: 'with --wait or oz executions wait: how long to wait, in milliseconds (default 600000); the run goes on',
  },
  { name: 'all', boolean: true, help: 'walk every page of a list, one JSON line per item' },
  { name: 'data', boolean: false, value: 'JSON|YAML|@file|-', help: 'the whole request body (- reads standard input); field flags override its fields' },
  { name: 'base-url', boolean: false, value: 'URL', help: "the service's address (default OZ_BASE_URL, else the profile's)" },
  { name: 'profile', boolean: false, value: 'NAME', help: "use this profile's key (default OZ_API_KEY, else OZ_PROFILE, else the chosen profile)" },
  { name: 'idempotency-key', boolean: false, value: 'KEY', help: 'the x-trace-id of a write (default: a new one per call, the same on every retry)' },
  { name: 'max-retries', boolean: false, value: 'N', help: 'retries after the first attempt (default 2)' },
  { name: 'timeout', boolean: false, value: 'MS', help: 'milliseconds per attempt (default 600000)' },
  { name: 'header', boolean: false, value: "'Name: value'", help: 'an extra request header (repeatable)', multiple: true },
  { name: 'help', boolean: true, help: 'this help' },
  { name: 'version', boolean: true, help: 'the SDK and API versions' },
];

/** The flags of `oz sign-in`, beside --profile and --help. */
export const SIGN_IN_FLAGS: readonly GlobalFlag[] = [
  { name: 'dashboard-url', boolean: false, value: 'URL', help: "the dashboard's address (default OZ_DASHBOARD_URL)" },
  { name: 'base-url', boolean: false, value: 'URL', help: "the service's address, kept in the profile for later calls (default OZ_BASE_URL)" },
  { name: 'open', boolean: true, help: 'open the sign-in page in the browser' },
  { name: 'profile', boolean: false, value: 'NAME', help: 'the profile to store the key under (default: the chosen profile, else default)' },
  { name: 'help', boolean: true, help: 'this help' },
];
