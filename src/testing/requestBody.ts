import { invalidJson } from './errors.js';
import { isPlainObject } from './paramCheck.js';
import { isYamlType, mediaType } from './wire.js';
import { parseYaml } from './yamlWire.js';

/**
 * Parses a request body: YAML when the Content-Type names YAML, JSON when it names JSON, and JSON then YAML
 * when it names neither (a bare YAML body is accepted). Empty is `{}`; anything that is not an object
 * answers 400 `invalid_json`.
 */
export function parseRequestBody(raw: string, contentType: string | null, jsonOnly: boolean): Record<string, unknown> {
  if (raw === '' || !/\S/.test(raw)) return {};
  let value: unknown;
  const type = mediaType(contentType);
  if (!jsonOnly && isYamlType(contentType)) {
    value = loadYaml(raw);
  } else {
    try {
      value = JSON.parse(raw);
    } catch (err) {
      if (jsonOnly || type === 'application/json' || type.endsWith('+json')) throw invalidJson((err as Error).message);
      value = loadYaml(raw);
    }
  }
  if (!isPlainObject(value)) throw invalidJson('the body must be an object');
  return value;
}

function loadYaml(raw: string): unknown {
  try {
    return parseYaml(raw);
  } catch (err) {
    throw invalidJson((err as Error).message.split('\n')[0] ?? 'bad YAML');
  }
}
