// js-yaml is imported on first use only, so a bundle of the core carries no YAML code until a YAML wire or a
// YAML body is used (the runtime caches the module after the first import).

/** Parses YAML with the JSON schema: timestamps stay strings, as on the json wire. */
export async function parseYaml(text: string): Promise<unknown> {
  const yaml = await import('js-yaml');
  return yaml.load(text, { schema: yaml.JSON_SCHEMA });
}

/**
 * Writes a value as YAML. The default schema is used for writing so that strings any YAML reader could take for
 * another type (`2026-11-21`, `true`, `1e3`) are quoted.
 */
export async function stringifyYaml(value: unknown): Promise<string> {
  const yaml = await import('js-yaml');
  return yaml.dump(value, { lineWidth: -1, noRefs: true });
}
