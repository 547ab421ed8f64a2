import { CLI_COMMANDS, type CliCommand } from '../generated/cli.js';
import { CliUsageError } from './cliUsageError.js';
import { kebabCase } from './flagNames.js';
import { didYouMean } from './nearestName.js';

/** The commands of `oz` that are not operations of the API. */
export type OwnCommandName = 'sign-in' | 'sign-out' | 'profiles list' | 'profiles use' | 'whoami' | 'mock' | 'completion' | 'executions wait';

/** An entry of the command tree: its words, and the operation or own command it runs. */
export type CommandEntry =
  | { readonly kind: 'operation'; readonly words: readonly string[]; readonly command: CliCommand; readonly summary: string }
  | { readonly kind: 'own'; readonly words: readonly string[]; readonly name: OwnCommandName; readonly summary: string; readonly usage: string };

const own = (name: OwnCommandName, usage: string, summary: string): CommandEntry => ({ kind: 'own', words: name.split(' '), name, usage, summary });

/** Every command: the operations of openapi.json (their `x-oz-method` word by word), then `oz`'s own. */
export const COMMANDS: readonly CommandEntry[] = [
  ...CLI_COMMANDS.map((command): CommandEntry => ({ kind: 'operation', words: command.method.map(kebabCase), command, summary: command.summary })),
  own(
    'sign-in',
    'oz sign-in [--dashboard-url URL] [--base-url URL] [--open] [--profile NAME]',
    'sign in on the dashboard and store the new key under a profile',
  ),
  own('sign-out', 'oz sign-out [--profile NAME]', "remove a profile's key from this machine"),
  own('profiles list', 'oz profiles list', 'list the stored profiles (never their keys)'),
  own('profiles use', 'oz profiles use NAME', 'choose the profile calls use when OZ_PROFILE is not set'),
  own(
    'executions wait',
    'oz executions wait ID [--wait-timeout MS]',
    'wait for a run started anywhere (a progress line on a terminal) and print its result, as oz executions get ID --wait',
  ),
  own('whoami', 'oz whoami', 'who the key is: user, tier, key label, rate-limit window (MCP svc_whoami)'),
  own('mock', 'oz mock [oz-mock flags]', 'run oz-mock, the embedded Oz server (oz mock --help)'),
  own('completion', 'oz completion bash|zsh|fish', 'print a shell completion script'),
];

/** What the words of a command line name. */
export type Resolved =
  { readonly kind: 'entry'; readonly entry: CommandEntry; readonly rest: string[] } | { readonly kind: 'group'; readonly words: readonly string[] };

const startsWith = (words: readonly string[], prefix: readonly string[]) => prefix.every((w, i) => words[i] === w);

/** The command the leading positionals name (the longest match), a group of commands, or a usage error with the nearest name. */
export function resolveCommand(positionals: readonly string[]): Resolved {
  let best: CommandEntry | undefined;
  for (const entry of COMMANDS) {
    if (entry.words.length <= positionals.length && startsWith(positionals, entry.words) && entry.words.length > (best?.words.length ?? 0)) best = entry;
  }
  if (best) return { kind: 'entry', entry: best, rest: positionals.slice(best.words.length) };
  let depth = 0;
  while (depth < positionals.length && COMMANDS.some((e) => e.words.length > depth + 1 && startsWith(e.words, positionals.slice(0, depth + 1)))) depth++;
  if (depth === positionals.length) return { kind: 'group', words: positionals };
  const prefix = positionals.slice(0, depth);
  const next = [...new Set(COMMANDS.filter((e) => e.words.length > depth && startsWith(e.words, prefix)).map((e) => e.words[depth]!))];
  const written = ['oz', ...positionals.slice(0, depth + 1)].join(' ');
  throw new CliUsageError(
    `Unknown command: ${written}.${didYouMean(positionals[depth]!, next, ['oz', ...prefix, ''].join(' '))} Run \`${['oz', ...prefix, '--help'].join(' ')}\` for the list.`,
  );
}

/** The commands under a group of words. */
export function commandsUnder(words: readonly string[]): CommandEntry[] {
  return COMMANDS.filter((e) => e.words.length > words.length && startsWith(e.words, words));
}
