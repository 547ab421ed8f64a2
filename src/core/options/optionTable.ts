import type { RequestOptions } from '../shared/requestOptions.js';
import type { RetryOptions } from '../shared/retryOptions.js';
import { checkedBaseURL } from './baseURL.js';
import { checkedMCPURL } from './mcpURL.js';

/** Where an option may be given: to a client (`new Oz`, `OzCore`, `withOptions()`), to a call, or to both. */
export type OptionPlace = 'client' | 'call' | 'both';

/**
 * What an option takes, as `options/checkOptions.ts` checks it:
 * - `string`: a string (then `refine`, when the row has one);
 * - `key`: a non-empty string or a function (the key, or its provider);
 * - `enum`: one of `values`;
 * - `number`: a number within `range`;
 * - `boolean`, `function`: of that type;
 * - `functions`: an array of functions (middleware);
 * - `record`: an object that is not an array (headers, a query, fetch's init fields);
 * - `signal`: an `AbortSignal` (anything with `aborted` and `addEventListener`, as a signal of another realm);
 * - `logger`: an object with the functions `error`, `warn`, `info` and `debug`;
 * - `fields`: an object whose fields are rows of their own (`fields`).
 */
export type OptionKind = 'string' | 'key' | 'enum' | 'number' | 'boolean' | 'function' | 'functions' | 'record' | 'signal' | 'logger' | 'fields';

/** The numbers a `number` option takes. */
export interface NumberRange {
  /** The least value; `above` makes it excluded (`> min` rather than `>= min`). */
  readonly min: number;
  readonly above?: boolean;
  /** The greatest value (default: any). */
  readonly max?: number;
  /** Whole numbers only (`Infinity` aside, when allowed). */
  readonly whole?: boolean;
  /** `Infinity` is taken (an unbounded wait or size). */
  readonly infinite?: boolean;
}

/** One option: where it may be given, what it takes, and the words that say so in an `OzUsageError`. */
export interface OptionRow {
  readonly where: OptionPlace;
  readonly kind: OptionKind;
  /** What the option takes, as the message says it: `<name> must be <takes>, not <what came>.` (derived for `enum`). */
  readonly takes?: string;
  readonly values?: readonly string[];
  readonly range?: NumberRange;
  /** A further check of a string, which throws its own `OzUsageError` naming `label` (a base URL's). */
  readonly refine?: (value: string, label: string) => void;
  readonly fields?: Readonly<Record<string, OptionRow>>;
}

/** The options only a client takes (per call, `headers` and `query` stand for the first two). */
export type ClientOnlyOptionName = 'defaultHeaders' | 'defaultQuery' | 'mcpURL' | 'dangerouslyAllowBrowser';

const MS_OR_INFINITY = 'a number of milliseconds > 0 (or Infinity)';
const BYTES = 'a whole number of bytes >= 1 (or Infinity)';
const RETRY_MS = 'a number of milliseconds >= 0 (or Infinity)';

/** The fields of `retry` (the same on a client, `withOptions()` and a call). */
const RETRY_FIELDS = {
  initialDelayMs: { where: 'both', kind: 'number', range: { min: 0 }, takes: 'a number of milliseconds >= 0' },
  maxDelayMs: { where: 'both', kind: 'number', range: { min: 0, infinite: true }, takes: RETRY_MS },
  jitter: { where: 'both', kind: 'number', range: { min: 0, max: 1 }, takes: 'a number from 0 to 1 (the share of a wait taken off at random)' },
  maxRetryAfterMs: { where: 'both', kind: 'number', range: { min: 0, infinite: true }, takes: RETRY_MS },
  shouldRetry: { where: 'both', kind: 'function', takes: 'a function (error, attempt) => boolean | undefined' },
  onRetry: { where: 'both', kind: 'function', takes: 'a function (info) => void' },
} as const satisfies Record<keyof RetryOptions, OptionRow>;

/**
 * Every option of a client (`ClientOptions` of src/clientOptions.ts) and of a call (`RequestOptions`), once: where
 * each may be given and what it takes. `options/checkOptions.ts` reads it where options are given (`new Oz`,
 * `OzCore`, `withOptions()`, each call), and `oz` for the flags that set options; test/core/options/ generates its
 * tests from it and holds it to both types.
 */
export const OPTION_TABLE = {
  apiKey: { where: 'both', kind: 'key', takes: 'a non-empty string or a function returning one' },
  baseURL: { where: 'both', kind: 'string', takes: 'an http:// or https:// address as a string', refine: (value, label) => void checkedBaseURL(value, label) },
  maxRetries: { where: 'both', kind: 'number', range: { min: 0, whole: true }, takes: 'a whole number >= 0' },
  retry: { where: 'both', kind: 'fields', fields: RETRY_FIELDS, takes: 'an object of retry options' },
  middleware: { where: 'both', kind: 'functions', takes: 'an array of functions (request, next, context) => Promise<Response>' },
  // Infinity is taken, as it was before the table: an attempt without a deadline.
  timeout: { where: 'both', kind: 'number', range: { min: 0, above: true, infinite: true }, takes: 'a number of milliseconds > 0' },
  idleTimeout: { where: 'both', kind: 'number', range: { min: 0, above: true, infinite: true }, takes: MS_OR_INFINITY },
  maxEventBytes: { where: 'both', kind: 'number', range: { min: 1, whole: true, infinite: true }, takes: BYTES },
  streamTimeout: { where: 'both', kind: 'number', range: { min: 0, above: true, infinite: true }, takes: MS_OR_INFINITY },
  maxResponseBytes: { where: 'both', kind: 'number', range: { min: 1, whole: true, infinite: true }, takes: BYTES },
  fetch: { where: 'both', kind: 'function', takes: 'a Fetch-API function (input, init) => Promise<Response>' },
  fetchOptions: { where: 'both', kind: 'record', takes: "an object of fields of fetch's init" },
  defaultHeaders: { where: 'client', kind: 'record', takes: 'an object of header names to values' },
  defaultQuery: { where: 'client', kind: 'record', takes: 'an object of query parameters' },
  logLevel: { where: 'both', kind: 'enum', values: ['off', 'error', 'warn', 'info', 'debug'] },
  logger: { where: 'both', kind: 'logger', takes: 'a logger: an object with the functions error, warn, info and debug (console is one)' },
  authHeader: { where: 'both', kind: 'enum', values: ['bearer', 'x-api-key'] },
  mcpURL: { where: 'client', kind: 'string', takes: 'an http:// or https:// address as a string', refine: (value, label) => void checkedMCPURL(value, label) },
  dangerouslyAllowBrowser: { where: 'client', kind: 'boolean', takes: 'true or false' },
  validate: { where: 'both', kind: 'enum', values: ['off', 'warn', 'strict'] },
  signal: { where: 'call', kind: 'signal', takes: 'an AbortSignal' },
  retainStreamText: { where: 'call', kind: 'boolean', takes: 'true or false' },
  idempotencyKey: { where: 'call', kind: 'string', takes: 'a string' },
  format: { where: 'call', kind: 'enum', values: ['json', 'yaml', 'markdown', 'text'] },
  bodyFormat: { where: 'call', kind: 'enum', values: ['json', 'yaml'] },
  headers: { where: 'call', kind: 'record', takes: 'an object of header names to values (null removes a default header)' },
  query: { where: 'call', kind: 'record', takes: 'an object of query parameters' },
} as const satisfies Record<keyof RequestOptions | ClientOnlyOptionName, OptionRow>;

/** The name of an option of the table. */
export type OptionName = keyof typeof OPTION_TABLE;

/** The options a client takes, by the table (test/core/options/ holds it equal to `keyof ClientOptions`). */
export type ClientOptionName = { [K in OptionName]: (typeof OPTION_TABLE)[K]['where'] extends 'call' ? never : K }[OptionName];

/** The options a call takes, by the table (held equal to `keyof RequestOptions`). */
export type CallOptionName = { [K in OptionName]: (typeof OPTION_TABLE)[K]['where'] extends 'client' ? never : K }[OptionName];
