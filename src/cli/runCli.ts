import { splitArgs } from './argv.js';
import { readGlobalOptions, unknownFlag } from './cliOptions.js';
import { CliUsageError } from './cliUsageError.js';
import { resolveCommand } from './commandTree.js';
import { completionScript } from './completionScript.js';
import type { reportError } from './errorExit.js';
import { EXIT } from './exitCodes.js';
import { GLOBAL_FLAGS, SIGN_IN_FLAGS } from './globalFlags.js';
import { groupHelp, VERSION_TEXT } from './help.js';
import type { CliIO } from './operationCommand.js';
import { resultText } from './output.js';
import { ownLinesStream, terminalStream } from './terminalText.js';

const BOOLEAN_FLAGS = new Set([...GLOBAL_FLAGS, ...SIGN_IN_FLAGS].filter((f) => f.boolean).map((f) => f.name));

// What a command needs (the client, the profile file, the sign-in) loads when it runs: `oz --help`,
// `oz --version` and a usage error start without them.

/** Runs one command line of `oz` and answers its exit code; errors are written on `io.stderr`. */
export async function runCli(args: readonly string[], given: CliIO): Promise<number> {
  // Nothing the service sent may drive a terminal: answers on a terminal, and oz's own lines (stderr) everywhere,
  // have their control characters escaped.
  const io: CliIO = { ...given, stdout: terminalStream(given.stdout), stderr: ownLinesStream(given.stderr) };
  // `oz mock` hands every later argument to oz-mock as written.
  if (args[0] === 'mock') return await (await import('./mockCommand.js')).runMock(args.slice(1), io);
  let format = undefined as Parameters<typeof reportError>[1] | undefined;
  try {
    // A body field that takes no value is a boolean: `--enabled`, `--no-enabled`, `--enabled=false`.
    const { positionals, flags } = splitArgs(args, (name) => BOOLEAN_FLAGS.has(name));
    const { options, rest } = readGlobalOptions(flags);
    format = options.format;
    if (options.version) {
      io.stdout.write(VERSION_TEXT);
      return EXIT.ok;
    }
    const resolved = resolveCommand(positionals);
    if (resolved.kind === 'group') {
      if (!options.help && positionals.length > 0)
        throw new CliUsageError(`oz ${positionals.join(' ')} needs a command. Run \`oz ${positionals.join(' ')} --help\` for the list.`);
      io.stdout.write(groupHelp(resolved.words));
      return EXIT.ok;
    }
    const { entry, rest: positional } = resolved;
    if (entry.kind === 'operation') {
      const { runOperation } = await import('./operationCommand.js');
      await runOperation(entry.words, entry.command, positional, rest, options, io);
      return EXIT.ok;
    }
    if (options.help) {
      io.stdout.write(`${entry.usage}\n\n${entry.summary}.\n`);
      return EXIT.ok;
    }
    if (entry.name === 'executions wait') {
      // `oz executions get ID --wait`, under its own name.
      const get = resolveCommand(['executions', 'get']);
      if (get.kind !== 'entry' || get.entry.kind !== 'operation') throw new Error('oz executions get is missing');
      const { runOperation } = await import('./operationCommand.js');
      await runOperation(get.entry.words, get.entry.command, positional, rest, { ...options, wait: true }, io);
      return EXIT.ok;
    }
    if (entry.name === 'sign-in') {
      const own = flags.filter((f) => SIGN_IN_FLAGS.some((s) => s.name === f.name));
      const others = flags.filter((f) => !SIGN_IN_FLAGS.some((s) => s.name === f.name));
      if (others.length)
        throw unknownFlag(
          others[0]!,
          SIGN_IN_FLAGS.map((f) => f.name),
        );
      await (await import('./signInCommand.js')).runSignIn(own, io);
      return EXIT.ok;
    }
    if (rest.length) throw unknownFlag(rest[0]!, []);
    await runOwnCommand(entry, positional, options, io);
    return EXIT.ok;
  } catch (error) {
    const { reportError } = await import('./errorExit.js');
    return await reportError(error, format ?? 'json', io.stderr, Boolean(io.env.OZ_DEBUG));
  }
}

/** A command of the command tree that is not an operation. */
type OwnEntry = Exclude<Extract<ReturnType<typeof resolveCommand>, { kind: 'entry' }>['entry'], { kind: 'operation' }>;

/** oz's own commands (sign-out, profiles, whoami, completion), their flags read: each checks its arguments first. */
async function runOwnCommand(
  entry: OwnEntry,
  positional: readonly string[],
  options: ReturnType<typeof readGlobalOptions>['options'],
  io: CliIO,
): Promise<void> {
  const extra = (allowed: number) => {
    if (positional.length > allowed) throw new CliUsageError(`Unexpected argument ${JSON.stringify(positional[allowed])}: ${entry.usage}.`);
  };
  const { listProfiles, signOut, useProfile } = await import('./profileCommands.js');
  switch (entry.name) {
    case 'sign-out':
      extra(0);
      await signOut(io, options.profile);
      break;
    case 'profiles list':
      extra(0);
      await listProfiles(io, options.format);
      break;
    case 'profiles use':
      extra(1);
      await useProfile(io, positional[0]);
      break;
    case 'whoami': {
      extra(0);
      const client = await (await import('./cliClient.js')).cliClient(options, io.env);
      io.stdout.write(await resultText(await client.whoami({ signal: io.signal }), options.format ?? 'json', io.stdout.isTTY === true));
      break;
    }
    case 'completion':
      extra(1);
      io.stdout.write(completionScript(positional[0]));
      break;
    case 'mock':
      break;
  }
}
