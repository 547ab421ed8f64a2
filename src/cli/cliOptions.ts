import { OzUsageError, type Format } from '../index.js';
import { checkOption } from '../core/options/checkOptions.js';
import { OPTION_TABLE, type OptionName } from '../core/options/optionTable.js';
import type { WrittenFlag } from './argv.js';
import { CliUsageError } from './cliUsageError.js';
import { didYouMean } from './nearestName.js';
import { GLOBAL_FLAGS } from './globalFlags.js';

/** The global flags of a command line, read and checked. */
export interface GlobalOptions {
  format: Format | undefined;
  stream: boolean;
  async: boolean;
  wait: boolean;
  all: boolean;
  help: boolean;
  version: boolean;
  data: string | undefined;
  baseURL: string | undefined;
  profile: string | undefined;
  idempotencyKey: string | undefined;
  maxRetries: number | undefined;
  timeout: number | undefined;
  /** `--wait-timeout`: how long a wait lasts (ms). */
  waitTimeout: number | undefined;
  headers: Record<string, string>;
}

// The wires of the option table's `format`, which the flag sets.
const FORMATS: readonly Format[] = OPTION_TABLE.format.values;
const isGlobal = (name: string) => GLOBAL_FLAGS.some((f) => f.name === name);

/** The value of a flag that needs one, or a usage error. */
export function valueOf(flag: WrittenFlag): string {
  if (flag.value === undefined) throw new CliUsageError(`--${flag.name} needs a value.`);
  return flag.value;
}

function wholeNumber(flag: WrittenFlag, min: number): number {
  const value = valueOf(flag);
  if (!/^\d+$/.test(value) || Number(value) < min) throw new CliUsageError(`--${flag.name} expects a whole number >= ${min}, not ${JSON.stringify(value)}.`);
  return Number(value);
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * `value`, the value of a flag that sets a client option (`--timeout` sets `timeout`), checked by the option's row
 * of the option table as `new Oz` would check it, with the flag named in the message.
 */
function checkedFlag<V>(flag: WrittenFlag, name: OptionName, value: V): V {
  try {
    return checkOption(name, value, `--${flag.name}`);
  } catch (error) {
    throw error instanceof OzUsageError ? new CliUsageError(error.message) : error;
  }
}

/** The number of a flag that sets a numeric client option (`--max-retries`, `--timeout`), checked by its row. */
function numberFlag(flag: WrittenFlag, name: 'maxRetries' | 'timeout'): number {
  const text = valueOf(flag);
  if (!NUMBER.test(text.trim())) throw new CliUsageError(`--${flag.name} expects a number, not ${JSON.stringify(text)}.`);
  return checkedFlag(flag, name, Number(text));
}

/** Reads one global flag into `options` (its value checked). */
function readGlobalFlag(flag: WrittenFlag, options: GlobalOptions): void {
  const bool = () => {
    if (flag.value !== 'true' && flag.value !== 'false')
      throw new CliUsageError(`--${flag.name} takes no value (or true/false), not ${JSON.stringify(flag.value)}.`);
    return flag.value === 'true';
  };
  switch (flag.name) {
    case 'format': {
      const value = valueOf(flag);
      if (!FORMATS.includes(value as Format))
        throw new CliUsageError(`--format expects one of ${FORMATS.join(', ')}, not ${JSON.stringify(value)}.${didYouMean(value, FORMATS)}`);
      options.format = value as Format;
      break;
    }
    case 'stream':
      options.stream = bool();
      break;
    case 'async':
      options.async = bool();
      break;
    case 'wait':
      options.wait = bool();
      break;
    case 'all':
      options.all = bool();
      break;
    case 'help':
      options.help = bool();
      break;
    case 'version':
      options.version = bool();
      break;
    case 'data':
      options.data = valueOf(flag);
      break;
    case 'base-url':
      options.baseURL = checkedFlag(flag, 'baseURL', valueOf(flag));
      break;
    case 'profile':
      options.profile = valueOf(flag);
      break;
    case 'idempotency-key':
      options.idempotencyKey = valueOf(flag);
      break;
    case 'max-retries':
      options.maxRetries = numberFlag(flag, 'maxRetries');
      break;
    case 'timeout':
      options.timeout = numberFlag(flag, 'timeout');
      break;
    case 'wait-timeout':
      options.waitTimeout = wholeNumber(flag, 1);
      break;
    case 'header': {
      const value = valueOf(flag);
      const colon = value.indexOf(':');
      if (colon <= 0) throw new CliUsageError(`--header expects 'Name: value', not ${JSON.stringify(value)}.`);
      options.headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
      break;
    }
  }
}

/** Reads the global flags out of `flags`; answers them and the flags left (a command's own). */
export function readGlobalOptions(flags: readonly WrittenFlag[]): { options: GlobalOptions; rest: WrittenFlag[] } {
  const options: GlobalOptions = {
    format: undefined,
    stream: false,
    async: false,
    wait: false,
    all: false,
    help: false,
    version: false,
    data: undefined,
    baseURL: undefined,
    profile: undefined,
    idempotencyKey: undefined,
    maxRetries: undefined,
    timeout: undefined,
    waitTimeout: undefined,
    headers: {},
  };
  const rest: WrittenFlag[] = [];
  for (const flag of flags) {
    if (isGlobal(flag.name)) readGlobalFlag(flag, options);
    else rest.push(flag);
  }
  return { options, rest };
}

/** A usage error for a flag no command knows, with the nearest known name. */
export function unknownFlag(flag: WrittenFlag, known: readonly string[]): CliUsageError {
  const names = [...known, ...GLOBAL_FLAGS.map((f) => f.name)];
  return new CliUsageError(`Unknown flag --${flag.name}.${didYouMean(flag.name, names, '--')}`);
}
