import { Command, type Option } from 'commander';
import type { CliCommand, CommandResult } from '../command.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

/** A command as completion needs it: its name and the flags it takes. */
export interface CompletedCommand {
  readonly name: string;
  readonly summary: string;
  readonly flags: readonly string[];
}

/**
 * `cosi completion bash|zsh|fish`: a completion script for the shell, generated from the
 * commands' own definitions, so it never lags behind them.
 */
export function createCompletionCommand(
  commands: () => readonly Command[],
): CliCommand<[string], string> {
  return {
    define: () =>
      new Command('completion')
        .summary('print a shell completion script (bash, zsh, fish)')
        .description(
          'Prints a script that completes cosi commands and flags (and file names after them).',
        )
        .argument('<shell>', SHELLS.join(', '))
        .addHelpText(
          'after',
          `
Examples:
  source <(cosi completion bash)                             # bash, this shell
  cosi completion zsh > "\${fpath[1]}/_cosi"                  # zsh
  cosi completion fish > ~/.config/fish/completions/cosi.fish  # fish`,
        ),
    run: (_io: CliIo, shell: string): Promise<CommandResult<string>> => {
      if (!(SHELLS as readonly string[]).includes(shell)) {
        throw new CliError(
          `completion: unknown shell ${JSON.stringify(shell)} (expected ${SHELLS.join(', ')})`,
        );
      }
      const described = commands().map(describe);
      return Promise.resolve({
        exitCode: EXIT.ok,
        result: completionScript(shell as Shell, described),
      });
    },
    render: (io, { result }) => {
      io.stdout.write(result);
    },
  };
}

function describe(command: Command): CompletedCommand {
  const flags = command.options.flatMap((o: Option) =>
    [o.short, o.long].filter((f): f is string => f !== undefined),
  );
  return { name: command.name(), summary: command.summary(), flags: [...flags, '--help'] };
}

/** The completion script for `shell`. */
export function completionScript(shell: Shell, commands: readonly CompletedCommand[]): string {
  switch (shell) {
    case 'bash':
      return bash(commands);
    case 'zsh':
      return `#compdef cosi\nautoload -U +X bashcompinit && bashcompinit\n${bash(commands)}`;
    case 'fish':
      return fish(commands);
  }
}

function bash(commands: readonly CompletedCommand[]): string {
  const cases = commands
    .map((c) => `    ${c.name}) flags=${quote(c.flags.join(' '))} ;;`)
    .join('\n');
  return `# cosi completion for bash: source <(cosi completion bash)
_cosi() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W ${quote(commands.map((c) => c.name).join(' '))} -- "$cur"))
    return
  fi
  local flags=""
  case "\${COMP_WORDS[1]}" in
${cases}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _cosi cosi
`;
}

function fish(commands: readonly CompletedCommand[]): string {
  const lines = ['# cosi completion for fish', 'complete -c cosi -f'];
  for (const c of commands) {
    lines.push(`complete -c cosi -n __fish_use_subcommand -a ${c.name} -d ${quote(c.summary)}`);
    for (const flag of c.flags) {
      const option = flag.startsWith('--') ? `-l ${flag.slice(2)}` : `-s ${flag.slice(1)}`;
      lines.push(`complete -c cosi -n '__fish_seen_subcommand_from ${c.name}' ${option} -r -F`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A single-quoted shell word. */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
