import { stringifyYaml } from '../core/answer/yaml.js';
import type { Format } from '../index.js';

/** Where `oz` writes: stdout or stderr, and whether it is a terminal. */
export interface OutputStream {
  write(text: string): unknown;
  readonly isTTY?: boolean | undefined;
}

const withNewline = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);

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

/**
 * A result in the chosen wire: what the service answered on markdown and text (a string) as it came; a parsed
 * answer as JSON (pretty on a terminal) or YAML; an object on markdown or text (an async pointer) as its keys.
 */
export async function resultText(value: unknown, format: Format, pretty: boolean): Promise<string> {
  if (typeof value === 'string' && (format === 'markdown' || format === 'text')) return withNewline(value);
  switch (format) {
    case 'json':
      return jsonText(value, pretty);
    case 'yaml':
      return await stringifyYaml(value);
    default:
      return typeof value === 'object' && value !== null ? `${keyLines(value as Record<string, unknown>)}\n` : withNewline(String(value));
  }
}
