/** One flag as written: its name without dashes, and its value (undefined when a value flag had none). */
export interface WrittenFlag {
  readonly name: string;
  readonly value: string | undefined;
  /** As written, for messages (`--priority=high`). */
  readonly written: string;
}

/** A command line split into positionals and flags. */
export interface SplitArgs {
  readonly positionals: string[];
  readonly flags: WrittenFlag[];
}

/**
 * Splits arguments into positionals and flags: `--name value`, `--name=value`, `--name` for a flag that takes no
 * value (`true`; `--no-name` is `false`), `-h` for `--help`, and `--` to end the flags. A value flag takes the next
 * argument unless it starts with `--` (so `--priority -1` and `--data -` work).
 *
 * @param isBoolean - Whether a flag takes no value; a name it does not know takes one.
 */
export function splitArgs(args: readonly string[], isBoolean: (name: string) => boolean): SplitArgs {
  const positionals: string[] = [];
  const flags: WrittenFlag[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg === '-h') {
      flags.push({ name: 'help', value: 'true', written: arg });
      continue;
    }
    if (!arg.startsWith('--') || arg === '--') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq !== -1) {
      flags.push({ name: arg.slice(2, eq), value: arg.slice(eq + 1), written: arg });
      continue;
    }
    const name = arg.slice(2);
    if (isBoolean(name)) {
      flags.push({ name, value: 'true', written: arg });
    } else if (name.startsWith('no-') && isBoolean(name.slice(3))) {
      flags.push({ name: name.slice(3), value: 'false', written: arg });
    } else {
      const next = args[i + 1];
      if (next === undefined || next.startsWith('--')) flags.push({ name, value: undefined, written: arg });
      else {
        flags.push({ name, value: next, written: `${arg} ${next}` });
        i++;
      }
    }
  }
  return { positionals, flags };
}
