import { loadPart } from './optionalPart.js';

/** js-yaml's reader and writer as the SDK uses them (an optional part: loaded on the first YAML answer or body). */
export interface YamlCodec {
  /** Parses YAML with the JSON schema: timestamps stay strings, as on the json wire. Throws on a broken document. */
  parse(text: string): unknown;
  /**
   * Writes a value as YAML. The default schema is used for writing so that strings any YAML reader could take for
   * another type (`2026-11-21`, `true`, `1e3`) are quoted.
   */
  stringify(value: unknown): string;
}

/** The YAML reader and writer, loaded on first use (an `OzError` naming the part when it cannot be loaded). */
export function yamlCodec(): Promise<YamlCodec> {
  return loadPart('the YAML reader and writer', async () => {
    const yaml = await import('js-yaml');
    return {
      parse: (text) => yaml.load(text, { schema: yaml.JSON_SCHEMA }),
      stringify: (value) => yaml.dump(value, { lineWidth: -1, noRefs: true }),
    };
  });
}

/** {@link YamlCodec.parse}, the codec loaded first. */
export async function parseYaml(text: string): Promise<unknown> {
  return (await yamlCodec()).parse(text);
}

/** {@link YamlCodec.stringify}, the codec loaded first. */
export async function stringifyYaml(value: unknown): Promise<string> {
  return (await yamlCodec()).stringify(value);
}
