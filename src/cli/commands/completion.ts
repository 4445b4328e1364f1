import { Command, type Option } from 'commander';
import type { CliCommand, CommandResult } from '../command.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

/** A command as completion needs it: its name, its flags and what its arguments are. */
export interface CompletedCommand {
  readonly name: string;
  readonly summary: string;
  readonly flags: readonly string[];
  /** The flags that take a value (the next word is theirs). */
  readonly valueFlags: readonly string[];
  /** What `-o` takes (`jsonpath` for `jsonpath=TEMPLATE`). */
  readonly formats: readonly string[];
  /**
   * `types`: the first argument is a type and the second an id (`explain`); `types-ids`: a type
   * and then any number of ids (`get vm web-1 web-2`); `shells`: a shell's name (`completion`).
   */
  readonly args: 'types' | 'types-ids' | 'files' | 'shells';
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
          "Prints a script that completes cosi's commands and flags, -o formats, file names where a command takes files, and, read from the project in context (its config's manifests, or -f on the line), resource types, their aliases and resource ids (cosi get vm <TAB>).",
        )
        .argument('<shell>', SHELLS.join(', '))
        .addHelpText(
          'after',
          `
Examples:
  source <(cosi completion bash)                             # bash, this shell
  source <(npx cosi completion bash)                         # bash, a project's own cosi: npx cosi <TAB>
  cosi completion zsh > "\${fpath[1]}/_cosi"                  # zsh
  cosi completion fish > ~/.config/fish/completions/cosi.fish  # fish

Exit codes: 0 printed, 2 usage error (an unknown shell), 70 cosi itself failed (a bug).`,
        ),
    run: (_io: CliIo, shell: string): Promise<CommandResult<string>> => {
      if (!(SHELLS as readonly string[]).includes(shell)) {
        throw new CliError(
          `completion: unknown shell ${JSON.stringify(shell)} (expected ${SHELLS.join(', ')})`,
        );
      }
      const described = commands()
        .filter((c) => !c.name().startsWith('__'))
        .map(describe);
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
  const names = (o: Option): string[] =>
    [o.short, o.long].filter((f): f is string => f !== undefined);
  const output = command.options.find((o) => o.long === '--output');
  // `jsonpath=TEMPLATE` is offered as `jsonpath=`, the template typed after it (kubectl's).
  const formats = (/output format: (.*)$/.exec(output?.description ?? '')?.[1] ?? '')
    .split(', ')
    .map((f) => /^[^= ]+=?/.exec(f)?.[0] ?? '')
    .filter((f) => f !== '');
  return {
    name: command.name(),
    summary: command.summary(),
    flags: [...command.options.flatMap(names), '--help'],
    valueFlags: command.options.filter((o) => o.required || o.optional).flatMap(names),
    formats,
    args:
      command.registeredArguments[0]?.name() === 'shell'
        ? 'shells'
        : command.registeredArguments[0]?.name() !== 'type'
          ? 'files'
          : command.registeredArguments[1]?.variadic === true
            ? 'types-ids'
            : 'types',
  };
}

/** The completion script for `shell`. */
export function completionScript(shell: Shell, commands: readonly CompletedCommand[]): string {
  switch (shell) {
    case 'bash':
      return bash(commands);
    case 'zsh':
      return zsh(commands);
    case 'fish':
      return fish(commands);
  }
}

function bash(commands: readonly CompletedCommand[]): string {
  const cases = commands
    .map(
      (c) =>
        `    ${c.name}) flags=${quote(c.flags.join(' '))}; values=${quote(c.valueFlags.join(' '))}; formats=${quote(c.formats.join(' '))}; args=${c.args} ;;`,
    )
    .join('\n');
  // Types, aliases and ids come from the project, asked of `cosi __complete` with the -f,
  // --config and --definitions given so far; flags and formats are written in here. bash splits
  // a word at an = (COMP_WORDBREAKS): `--output=j` comes as `--output`, `=`, `j`, read here as
  // `--output j` (kubectl's `-o=json` too), the value completed after the =.
  return `# cosi completion for bash: source <(cosi completion bash), or with a project's own cosi
# source <(npx cosi completion bash), which completes npx cosi ... too.
# A word as the shell reads it: a path typed 'my dir', "my dir", my\\ dir or ~/dir, for cosi.
_cosi_unquote() {
  local word="$1" out="" c j
  case "$word" in
    \\'*) word="\${word#\\'}"; out="\${word%\\'}" ;;
    \\"*) word="\${word#\\"}"; out="\${word%\\"}" ;;
    *)
      [[ "$word" == "~/"* ]] && word="$HOME/\${word#"~/"}"
      for ((j = 0; j < \${#word}; j++)); do
        c="\${word:j:1}"
        [[ "$c" == "\\\\" ]] && { j=$((j + 1)); c="\${word:j:1}"; }
        out+="$c"
      done ;;
  esac
  printf '%s' "$out"
}
# The cosi that answers for the project: the one typed (a path), else the cosi on PATH, else the
# project's own (node_modules/.bin/cosi here or in a parent directory, as npx finds it).
_cosi_complete() {
  local program="\${_cosi_program:-cosi}" dir="$PWD"
  if [[ "$program" != */* ]] && ! type "$program" >/dev/null 2>&1; then
    while :; do
      [ -x "$dir/node_modules/.bin/cosi" ] && { program="$dir/node_modules/.bin/cosi"; break; }
      [ -z "$dir" ] || [ "$dir" = / ] && break
      dir="\${dir%/*}"
    done
  fi
  "$program" __complete "$@" 2>/dev/null
}
_cosi() {
  local -a words=()
  local cword=0 i
  for ((i = 0; i < \${#COMP_WORDS[@]}; i++)); do
    if [[ "\${COMP_WORDS[i]}" == = && "\${COMP_WORDS[i-1]}" == -* ]]; then
      [ "$i" -eq "$COMP_CWORD" ] && { words+=(""); cword=$((\${#words[@]} - 1)); }
      continue
    fi
    words+=("\${COMP_WORDS[i]}")
    [ "$i" -eq "$COMP_CWORD" ] && cword=$((\${#words[@]} - 1))
  done
  local cur="\${words[cword]}" prev="\${words[cword-1]}"
  local _cosi_program
  _cosi_program="$(_cosi_unquote "\${words[0]}")"
  # Words are no file names: without this, a command, type or id that is also a directory here
  # (test/ of a cosi init project) would be completed as one, with a slash (cosi test/). The
  # branches that complete files turn it back on.
  compopt +o filenames 2>/dev/null
  if [ "$cword" -eq 1 ]; then
    COMPREPLY=($(compgen -W ${quote(commands.map((c) => c.name).join(' '))} -- "$cur"))
    return
  fi
  local flags="" values="" formats="" args=files
  case "\${words[1]}" in
${cases}
  esac
  local project=() type="" n=0 word
  for ((i = 2; i < cword; i++)); do
    word="\${words[i]}"
    case "$word" in
      -f|--file|--config|--definitions)
        project+=("$word" "$(_cosi_unquote "\${words[i+1]}")"); i=$((i + 1)); continue ;;
    esac
    if [[ " $values " == *" $word "* ]]; then i=$((i + 1)); continue; fi
    if [[ "$word" != -* ]]; then
      [ "$n" -eq 0 ] && type="$word"
      n=$((n + 1))
    fi
  done
  if [[ "$prev" == -o || "$prev" == --output ]]; then
    COMPREPLY=($(compgen -W "$formats" -- "$cur"))
    # jsonpath=: the template follows the =, no space.
    [[ \${#COMPREPLY[@]} -eq 1 && "\${COMPREPLY[0]}" == *= ]] && compopt -o nospace
  elif [[ "$prev" == -n || "$prev" == --namespace ]]; then
    COMPREPLY=($(compgen -W "$(_cosi_complete namespaces "\${project[@]}")" -- "$cur"))
  elif [[ " $values " == *" $prev "* ]]; then
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
  elif [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  elif [ "$args" = shells ]; then
    [ "$n" -eq 0 ] && COMPREPLY=($(compgen -W ${quote(SHELLS.join(' '))} -- "$cur"))
  elif [[ "$args" == types* ]] && [ "$n" -eq 0 ]; then
    COMPREPLY=($(compgen -W "$(_cosi_complete types "\${project[@]}")" -- "$cur"))
  elif [[ "$args" == types* && "$n" -eq 1 ]] || [ "$args" = types-ids ]; then
    COMPREPLY=($(compgen -W "$(_cosi_complete ids "$type" "\${project[@]}")" -- "$cur"))
  else
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _cosi cosi
# npx cosi ...: the words after npx, completed as cosi's; any other npx line as files. Left alone
# when npx already completes.
_cosi_npx() {
  if [ "$COMP_CWORD" -ge 2 ] && [ "\${COMP_WORDS[1]}" = cosi ]; then
    local -a COMP_WORDS=("\${COMP_WORDS[@]:1}")
    local COMP_CWORD=$((COMP_CWORD - 1))
    _cosi
  elif [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W cosi -- "\${COMP_WORDS[1]}") $(compgen -f -- "\${COMP_WORDS[1]}"))
  else
    COMPREPLY=($(compgen -f -- "\${COMP_WORDS[COMP_CWORD]}"))
  fi
}
complete -p npx >/dev/null 2>&1 || complete -o filenames -F _cosi_npx npx
`;
}

/** A zsh array's words: `(a b c)`, each quoted. */
const zshArray = (words: readonly string[]): string => `(${words.map(quote).join(' ')})`;

function zsh(commands: readonly CompletedCommand[]): string {
  const names = commands.map((c) => `${c.name}:${c.summary.replace(/:/g, '\\:')}`);
  const cases = commands
    .map(
      (c) =>
        `    ${c.name}) flags=${zshArray(c.flags)}; values=${zshArray(c.valueFlags)}; formats=${zshArray(c.formats)}; args=${c.args} ;;`,
    )
    .join('\n');
  // The same reading of the line as bash's (see above), on zsh's own `words` and `CURRENT`; zsh
  // keeps `--output=j` one word: the value after the = is completed as the flag's.
  return `#compdef cosi
# cosi completion for zsh: cosi completion zsh > "\${fpath[1]}/_cosi" (or source it)
# The cosi that answers for the project: the one typed (a path), else the cosi on PATH, else the
# project's own (node_modules/.bin/cosi here or in a parent directory, as npx finds it).
_cosi_complete() {
  local program="\${(Q)words[1]}" dir="$PWD"
  [[ "$program" == */* ]] || program=cosi
  if [[ "$program" != */* ]] && ! type cosi >/dev/null 2>&1; then
    while :; do
      [[ -x "$dir/node_modules/.bin/cosi" ]] && { program="$dir/node_modules/.bin/cosi"; break; }
      [[ -z "$dir" || "$dir" == / ]] && break
      dir="\${dir%/*}"
    done
  fi
  "$program" __complete "$@" 2>/dev/null
}
_cosi() {
  local -a commands=${zshArray(names)}
  if (( CURRENT == 2 )); then
    _describe -t commands 'cosi command' commands
    return
  fi
  local -a flags values formats project
  local args=files type="" word
  integer n=0 i
  case "\${words[2]}" in
${cases}
  esac
  for (( i = 3; i < CURRENT; i++ )); do
    word="\${words[i]}"
    case "$word" in
      -f|--file|--config|--definitions)
        project+=("$word" "\${(Q)words[i+1]}"); (( i++ )); continue ;;
      -f=*|--file=*|--config=*|--definitions=*)
        project+=("\${word%%=*}" "\${(Q)word#*=}"); continue ;;
    esac
    if (( \${values[(Ie)$word]} )); then (( i++ )); continue; fi
    if [[ "$word" != -* ]]; then
      (( n == 0 )) && type="$word"
      (( n++ ))
    fi
  done
  local prev="\${words[CURRENT-1]}" cur="\${words[CURRENT]}"
  if [[ "$cur" == -*=* ]]; then
    prev="\${cur%%=*}"
    compset -P 1 '*='
  fi
  if [[ "$prev" == (-o|--output) ]]; then
    # jsonpath=: the template follows the =, no space.
    compadd -- \${formats:#*=}
    compadd -S '' -- \${(M)formats:#*=}
  elif [[ "$prev" == (-n|--namespace) ]]; then
    compadd -- \${(f)"$(_cosi_complete namespaces "\${project[@]}")"}
  elif (( \${values[(Ie)$prev]} )); then
    _files
  elif [[ "$cur" == -* ]]; then
    compadd -a flags
  elif [[ "$args" == shells ]]; then
    (( n == 0 )) && compadd -- ${SHELLS.join(' ')}
  elif [[ "$args" == types* ]] && (( n == 0 )); then
    compadd -- \${(f)"$(_cosi_complete types "\${project[@]}")"}
  elif [[ "$args" == types* && n -eq 1 || "$args" == types-ids ]]; then
    compadd -- \${(f)"$(_cosi_complete ids "$type" "\${project[@]}")"}
  else
    _files
  fi
}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _cosi "$@"
else
  compdef _cosi cosi
fi
`;
}

function fish(commands: readonly CompletedCommand[]): string {
  const lines = [
    '# cosi completion for fish: cosi completion fish > ~/.config/fish/completions/cosi.fish',
    'complete -c cosi -f',
    // The project's types (no word yet) or the ids of the type given (one word), asked of
    // `cosi __complete` with the -f, --config and --definitions on the line; $argv are the
    // command's flags that take a value (their value is not a word).
    'function __cosi_complete_project',
    // The first argument says whether ids go on after the first (`get vm a b`): many, or one;
    // or that the namespaces are asked for (`-n`).
    '    set -l ids $argv[1]',
    '    set -e argv[1]',
    '    set -l words (commandline -opc)',
    '    set -l project',
    '    set -l positional',
    '    set -l i 3',
    '    while test $i -le (count $words)',
    '        set -l word $words[$i]',
    '        if contains -- $word -f --file --config --definitions',
    '            set -a project $word $words[(math $i + 1)]',
    '            set i (math $i + 2)',
    '            continue',
    "        else if string match -qr -- '^(-f|--file|--config|--definitions)=' $word",
    '            set -a project (string split -m 1 = -- $word)',
    '        else if contains -- $word $argv',
    '            set i (math $i + 2)',
    '            continue',
    '        else if not string match -q -- "-*" $word',
    '            set -a positional $word',
    '        end',
    '        set i (math $i + 1)',
    '    end',
    // `-n`: the namespaces the project's resources are in.
    '    if test $ids = namespaces',
    '        cosi __complete namespaces $project 2>/dev/null',
    '        return',
    '    end',
    '    switch (count $positional)',
    '        case 0',
    '            cosi __complete types $project 2>/dev/null',
    '        case 1',
    '            cosi __complete ids $positional[1] $project 2>/dev/null',
    "        case '*'",
    '            test $ids = many; and cosi __complete ids $positional[1] $project 2>/dev/null',
    '    end',
    'end',
  ];
  for (const c of commands) {
    const seen = `'__fish_seen_subcommand_from ${c.name}'`;
    lines.push(`complete -c cosi -n __fish_use_subcommand -a ${c.name} -d ${quote(c.summary)}`);
    for (const flag of c.flags) {
      const option = flag.startsWith('--') ? `-l ${flag.slice(2)}` : `-s ${flag.slice(1)}`;
      const takes = c.valueFlags.includes(flag);
      const values =
        takes && (flag === '-o' || flag === '--output')
          ? ` -x -a ${quote(c.formats.join(' '))}`
          : takes && (flag === '-n' || flag === '--namespace')
            ? ` -x -a ${quote(`(__cosi_complete_project namespaces ${c.valueFlags.join(' ')})`)}`
            : takes
              ? ' -r -F'
              : '';
      lines.push(`complete -c cosi -n ${seen} ${option}${values}`);
    }
    lines.push(
      c.args === 'shells'
        ? `complete -c cosi -n ${seen} -a ${quote(SHELLS.join(' '))}`
        : c.args !== 'files'
          ? `complete -c cosi -n ${seen} -a ${quote(`(__cosi_complete_project ${c.args === 'types-ids' ? 'many' : 'one'} ${c.valueFlags.join(' ')})`)}`
          : `complete -c cosi -n ${seen} -F`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A single-quoted shell word. */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
