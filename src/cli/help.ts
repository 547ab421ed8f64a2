import type { CliCommand, CliFlag } from '../generated/cli.js';
import { API_VERSION, SDK_VERSION } from '../core/shared/version.js';
import { commandsUnder, type CommandEntry } from './commandTree.js';
import { kebabCase } from './flagNames.js';
import { describeFlagType, flagTypeOf } from './flagType.js';
import { GLOBAL_FLAGS, type GlobalFlag } from './globalFlags.js';

/** What `oz --version` prints. */
export const VERSION_TEXT = `oz-sdk ${SDK_VERSION} (API ${API_VERSION})\n`;

const firstLine = (text: string) => text.split('\n')[0]!.trim();

function table(rows: readonly (readonly [string, string])[]): string {
  const width = Math.min(Math.max(0, ...rows.map(([left]) => left.length)), 40);
  return rows.map(([left, right]) => (left.length > width ? `  ${left}\n  ${' '.repeat(width)}  ${right}` : `  ${left.padEnd(width)}  ${right}`)).join('\n');
}

const globalRows = (flags: readonly GlobalFlag[]) => flags.map((f): [string, string] => [`--${f.name}${f.value ? ` ${f.value}` : ''}`, f.help]);

/** `oz --help`, or the help of a group of commands (`oz companies --help`). */
export function groupHelp(words: readonly string[]): string {
  const entries = commandsUnder(words).sort((a, b) => a.words.join(' ').localeCompare(b.words.join(' ')));
  const title = words.length ? `oz ${words.join(' ')}: its commands` : `oz: the command line of the Oz service (oz-sdk ${SDK_VERSION}, API ${API_VERSION})`;
  return (
    `${title}\n\nUsage: oz ${words.length ? `${words.join(' ')} ` : ''}<command> [arguments] [flags]\n\nCommands:\n` +
    `${table(entries.map((e: CommandEntry) => [e.words.join(' '), firstLine(e.summary)]))}\n\n` +
    `Global flags:\n${table(globalRows(GLOBAL_FLAGS))}\n\n` +
    'The key: --profile, else OZ_API_KEY, else the profile OZ_PROFILE names, else the chosen profile (oz sign-in stores one).\n' +
    'Exit codes: 0 success, 1 an error answer of the API, 2 a usage error (nothing sent), 3 a connection error or timeout, 130 interrupted.\n' +
    "Run `oz <command> --help` for a command's arguments and flags.\n"
  );
}

/** A field's row in a command's help. */
export function fieldRow(field: CliFlag): [string, string] {
  const type = describeFlagType(flagTypeOf(field.schema));
  return [`--${kebabCase(field.name)} ${type}`, `${field.required ? '(required) ' : ''}${firstLine(field.description)}`];
}

/** `oz <command> --help`: summary, description, usage, arguments, flags (a tool's or agent's own fields when read from its card). */
export function commandHelp(words: readonly string[], command: CliCommand, cardFields?: readonly CliFlag[]): string {
  const args = command.pathParams.map((p) => p.name.toUpperCase());
  const out = [`oz ${words.join(' ')}: ${command.summary}`];
  if (command.description) out.push('', command.description);
  out.push('', `Usage: oz ${[...words, ...args].join(' ')} [flags]`);
  if (command.pathParams.length) out.push('', 'Arguments:', table(command.pathParams.map((p): [string, string] => [p.name.toUpperCase(), p.description])));
  const fields = [...command.query, ...(command.body?.fields ?? [])];
  if (fields.length) out.push('', 'Flags:', table(fields.map(fieldRow)));
  if (cardFields) out.push('', `Fields of its card's input_schema:`, cardFields.length ? table(cardFields.map(fieldRow)) : '  (none)');
  else if (command.card)
    out.push(
      '',
      `The ${command.card}'s own fields are flags too: \`oz ${words.join(' ')} ${command.card === 'tool' ? 'TOOL' : '--agent NAME'} --help\` lists them (read from its card).`,
    );
  const applies = GLOBAL_FLAGS.filter((f) => {
    if (f.name === 'stream') return command.streaming !== 'none' && command.streaming !== 'always';
    if (f.name === 'async' || f.name === 'wait') return command.body?.async === true;
    if (f.name === 'all') return command.paged;
    if (f.name === 'data') return command.body !== undefined;
    return true;
  });
  out.push('', 'Global flags:', table(globalRows(applies)), '');
  return out.join('\n');
}
