import { stringifyYaml } from '../core/shared/yaml.js';
import { wireOfContentType } from '../core/shared/wire.js';
import type { Format } from '../index.js';
import type { WireBytes } from './answerBytes.js';
import { expandsWithin, MAX_EXPANDED_BYTES } from './expansionBound.js';

/** Where `oz` writes: stdout or stderr, and whether it is a terminal. */
export interface OutputStream {
  /** Text, or an answer's bytes as they came (written as they are). */
  write(text: string | Uint8Array): unknown;
  readonly isTTY?: boolean | undefined;
}

const withNewline = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);
const UTF8 = new TextDecoder();

/** JSON as `oz` prints it: pretty on a terminal, one line when piped. */
export function jsonText(value: unknown, pretty: boolean): string {
  return `${JSON.stringify(value, null, pretty ? 2 : undefined)}\n`;
}

/** An object's top-level keys, one `key: value` per line (how the text and markdown wires list an async pointer). */
function keyLines(value: Record<string, unknown>): string {
  return Object.entries(value)
    .map(([key, v]) => `${key}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join('\n');
}

/** A value written out again would grow past {@link MAX_EXPANDED_BYTES} (YAML aliases), and its bytes were not kept. */
export class ExpansionError extends Error {
  override name = 'ExpansionError';
  constructor() {
    super(
      `the answer's YAML aliases would expand past ${MAX_EXPANDED_BYTES} bytes if it were written out again, so it is not printed; pipe the call's answer to a file to keep it as it came.`,
    );
  }
}

/**
 * A result in the chosen wire: what the service answered on markdown and text (a string) as it came; a parsed
 * answer as JSON (pretty on a terminal) or YAML; an object on markdown or text (an async pointer) as its keys. A
 * value whose YAML aliases would expand past {@link MAX_EXPANDED_BYTES} is never written out: {@link ExpansionError}.
 */
export async function resultText(value: unknown, format: Format, pretty: boolean): Promise<string> {
  if (typeof value === 'string' && (format === 'markdown' || format === 'text')) return withNewline(value);
  if (typeof value === 'object' && value !== null && !expandsWithin(value)) throw new ExpansionError();
  switch (format) {
    case 'json':
      return jsonText(value, pretty);
    case 'yaml':
      return await stringifyYaml(value);
    default:
      return typeof value === 'object' && value !== null ? `${keyLines(value as Record<string, unknown>)}\n` : withNewline(String(value));
  }
}

/**
 * One answer as `oz` prints it. Piped or redirected, the answer's bytes exactly as they came when it came in the
 * chosen wire. On a terminal, a YAML, markdown or text answer asked for as such is printed as it came too, and a
 * JSON one pretty; any other is written in the chosen wire ({@link resultText}), unless its YAML aliases would
 * expand past {@link MAX_EXPANDED_BYTES}: then it is printed as it came.
 */
export async function answerOutput(value: unknown, wire: WireBytes | undefined, format: Format, terminal: boolean): Promise<string | Uint8Array> {
  const came = wire === undefined ? undefined : wireOfContentType(wire.contentType);
  if (wire !== undefined && came === format && (!terminal || format !== 'json')) return terminal ? withNewline(UTF8.decode(wire.bytes)) : wire.bytes;
  try {
    return await resultText(value, format, terminal);
  } catch (error) {
    if (!(error instanceof ExpansionError) || wire === undefined) throw error;
    return terminal ? withNewline(UTF8.decode(wire.bytes)) : wire.bytes;
  }
}
