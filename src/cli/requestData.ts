import { parseYaml } from '../core/shared/yaml.js';
import { CliUsageError } from './cliUsageError.js';

/** Where `--data` reads from: the text itself, `@file`, or `-` for standard input. */
export async function readDataText(data: string, readStdin: () => Promise<string>): Promise<string> {
  if (data === '-') return await readStdin();
  if (!data.startsWith('@')) return data;
  const file = data.slice(1);
  const { readFile } = await import('node:fs/promises');
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new CliUsageError(`--data ${data}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
}

/**
 * A request body from `--data`: JSON, else YAML (with JSON's types: dates stay strings), and an object either
 * way. Anything else is refused before anything is sent.
 */
export async function parseData(text: string, source: string): Promise<Record<string, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    try {
      value = await parseYaml(text);
    } catch (error) {
      const reason = (error as Error).message.split('\n')[0];
      throw new CliUsageError(`--data ${source} is neither JSON nor YAML (${reason}).`);
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliUsageError(
      `--data ${source} must be a JSON or YAML object (a mapping of fields), not ${Array.isArray(value) ? 'a list' : JSON.stringify(value)}.`,
    );
  }
  return value as Record<string, unknown>;
}
