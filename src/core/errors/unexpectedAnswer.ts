import { OzError } from './errors.js';

// Long enough to recognise what came, short enough for one line of a message.
const SHOWN_CHARS = 60;

/**
 * A short account of a value an answer held, for an error message: `null`, `an array (2 items)`, `the string
 * "running"`, `an object with keys ok, content`, `the number 3`.
 */
export function describeAnswer(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `an array (${value.length} item${value.length === 1 ? '' : 's'})`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS)}…` : value)}`;
  if (typeof value !== 'object') return `the ${typeof value} ${String(value)}`;
  const keys = Object.keys(value);
  if (keys.length === 0) return 'an empty object';
  const shown = keys.join(', ');
  return `an object with keys ${shown.length > SHOWN_CHARS ? `${shown.slice(0, SHOWN_CHARS)}…` : shown}`;
}

/** Whether a value is a JSON object (not null, not an array): the shape of every record an answer carries. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The `OzError` of an answer that is not what its operation answers, naming what it expected and what came
 * (`The answer of whoami is not an object: it is an array (0 items).`).
 */
export function unexpectedAnswer(what: string, expected: string, value: unknown): OzError {
  return new OzError(`The answer of ${what} is not ${expected}: it is ${describeAnswer(value)}.`);
}
