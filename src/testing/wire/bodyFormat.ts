import { isYamlType } from './wire.js';
import { parseYaml } from './yamlWire.js';

/**
 * The `format` a request body names, read from its bytes before the body step parses them: an error fault
 * answers before that step, and its answer must go out on the wire the body asked for, as the handler's would.
 * `undefined` when the body names none, or does not parse (its own step answers that).
 */
export function rawBodyFormat(raw: string | null, contentType: string | null): unknown {
  if (raw === null || !/\S/.test(raw)) return undefined;
  let value: unknown;
  try {
    value = isYamlType(contentType) ? parseYaml(raw, 'refuse', 'The request body') : JSON.parse(raw);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>).format : undefined;
}
