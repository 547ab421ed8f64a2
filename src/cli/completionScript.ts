import { COMMANDS } from './commandTree.js';
import { CliUsageError } from './cliUsageError.js';
import { GLOBAL_FLAGS } from './globalFlags.js';

/** The words that may follow each prefix of words (`''` is the start), from the command tree. */
function nextWords(): Map<string, string[]> {
  const next = new Map<string, Set<string>>();
  for (const entry of COMMANDS) {
    for (let i = 0; i < entry.words.length; i++) {
      const prefix = entry.words.slice(0, i).join(' ');
      if (!next.has(prefix)) next.set(prefix, new Set());
      next.get(prefix)!.add(entry.words[i]!);
    }
  }
  return new Map([...next].map(([prefix, words]) => [prefix, [...words].sort()]));
}

const flags = GLOBAL_FLAGS.map((f) => `--${f.name}`).join(' ');

function bash(): string {
  const cases = [...nextWords()].map(([prefix, words]) => `    "${prefix}") words="${words.join(' ')}" ;;`).join('\n');
  return `# oz completion for bash: eval "$(oz completion bash)"
_oz_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prefix="" word words=""
  for word in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case "$word" in -*) ;; *) prefix="\${prefix:+$prefix }$word" ;; esac
  done
  case "$cur" in
    -*) COMPREPLY=($(compgen -W "${flags}" -- "$cur")); return ;;
  esac
  case "$prefix" in
${cases}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _oz_complete oz
`;
}

function fish(): string {
  const lines = ['# oz completion for fish: oz completion fish | source', 'complete -c oz -f'];
  for (const [prefix, words] of nextWords()) {
    const condition = prefix === '' ? '__fish_use_subcommand' : `string match -q -- "${prefix}" (string join " " (commandline -opc)[2..])`;
    lines.push(`complete -c oz -f -n '${condition}' -a '${words.join(' ')}'`);
  }
  for (const flag of GLOBAL_FLAGS) lines.push(`complete -c oz -l ${flag.name} -d '${flag.help.replace(/'/g, '')}'`);
  return `${lines.join('\n')}\n`;
}

/** `oz completion bash|zsh|fish`: a completion script of every command's words and the global flags. */
export function completionScript(shell: string | undefined): string {
  switch (shell) {
    case 'bash':
      return bash();
    case 'zsh':
      return `# oz completion for zsh: eval "$(oz completion zsh)"\nautoload -U +X bashcompinit && bashcompinit\n${bash().split('\n').slice(1).join('\n')}`;
    case 'fish':
      return fish();
    default:
      throw new CliUsageError(`oz completion expects bash, zsh or fish${shell === undefined ? '' : `, not ${JSON.stringify(shell)}`}.`);
  }
}
