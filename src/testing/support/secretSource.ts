import { readFileSync } from 'node:fs';

/** Where a secret given at start came from: its flag, its file flag, its environment variable. */
export type SecretSource = 'flag' | 'file' | 'env';

/** The names one secret may be given under: a flag (`--api-key`), a file flag (`--api-key-file`), a variable. */
export interface SecretNames {
  readonly flag: string;
  readonly fileFlag: string;
  readonly env: string;
}

/** What was given for one secret: the flag's value, the file flag's path, the variable's value (each maybe absent). */
export interface SecretInputs {
  readonly flag: string | undefined;
  readonly file: string | undefined;
  readonly env: string | undefined;
}

/** A secret as given, with where it came from. */
export interface GivenSecret {
  readonly value: string;
  readonly source: SecretSource;
  /** The source as a message names it (never the value): `--api-key`, `--api-key-file /run/key`, `OZ_MOCK_API_KEY`. */
  readonly origin: string;
}

/**
 * The secret given under `names`, or `undefined` when none was (an empty variable counts as unset).
 * A flag beats its file, a file beats the environment: what the command line says wins over what the process
 * inherited, and a flag with its file flag is a mistake, not a choice. A file holds the secret on its first line
 * (trimmed), so `echo KEY > file` and a file with a trailing newline or `\r\n` both work.
 * Throws an `Error` whose message names the flag and the path (never the value) when the flag and its file flag
 * are both given, or the file cannot be read, or its first line is empty.
 */
export function givenSecret(names: SecretNames, inputs: SecretInputs): GivenSecret | undefined {
  if (inputs.flag !== undefined && inputs.file !== undefined) throw new Error(`${names.flag} and ${names.fileFlag} exclude each other: give the value one way`);
  if (inputs.flag !== undefined) return { value: inputs.flag, source: 'flag', origin: names.flag };
  if (inputs.file !== undefined) return { value: firstLine(names.fileFlag, inputs.file), source: 'file', origin: `${names.fileFlag} ${inputs.file}` };
  if (inputs.env) return { value: inputs.env, source: 'env', origin: names.env };
  return undefined;
}

/** The trimmed first line of a secret's file; an unreadable file or an empty first line throws, naming both. */
function firstLine(fileFlag: string, path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`${fileFlag}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const line = text.split('\n', 1)[0]!.trim();
  if (line === '') throw new Error(`${fileFlag}: ${path} is empty (the value goes on its first line)`);
  return line;
}
