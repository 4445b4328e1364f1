import type { Command } from 'commander';

/**
 * What cosi takes for a kubeconform flag: the long option of its own that does the same, or a
 * sentence when cosi needs no flag for it. Go's flag package takes a flag with one dash or two.
 */
interface KubeconformFlag {
  /** cosi's option, said only where the command has it. */
  readonly option?: string;
  /** What to say instead, for a command named in `commands`. */
  readonly note?: string;
  readonly commands?: readonly string[];
}

const KUBECONFORM_FLAGS: ReadonlyMap<string, KubeconformFlag> = new Map([
  ['skip', { option: '--skip-kinds' }],
  ['reject', { option: '--reject-kinds' }],
  ['ignore-missing-schemas', { option: '--ignore-unknown-kinds' }],
  ['kubernetes-version', { option: '--kubernetes-version' }],
  ['schema-location', { option: '--schema-location' }],
  ['cache', { option: '--schema-cache' }],
  [
    'strict',
    {
      note: 'cosi check always fails on undeclared fields and keys written twice: leave it out (--strict fails on warnings too)',
      commands: ['check'],
    },
  ],
  ['ignore-filename-pattern', { option: '--ignore' }],
  [
    'summary',
    {
      note: 'cosi check always ends with its summary ("N passed, N failed"): leave it out',
      commands: ['check'],
    },
  ],
]);

/**
 * Commander's refusal of a kubeconform flag (`-skip`, `--reject`, `-ignore-missing-schemas`,
 * `-summary`, with its value after `=` too) with the flag cosi takes for it, in place of the
 * suggestion commander made by spelling (`--reject` was "did you mean --expect, --report?").
 * `text` as it was otherwise.
 *
 * @example
 * withKubeconformFlag("error: unknown option '-skip'\n", check)
 * // "error: unknown option '-skip'\n(kubeconform's -skip is --skip-kinds here)\n"
 */
export function withKubeconformFlag(text: string, command: Command): string {
  const given = /^error: unknown option '--?([a-z-]+)(?:=[^']*)?'/.exec(text)?.[1];
  const flag = given === undefined ? undefined : KUBECONFORM_FLAGS.get(given);
  if (given === undefined || flag === undefined) return text;
  const option = command.options.find((o) => o.long !== undefined && o.long === flag.option);
  const said =
    option?.long !== undefined
      ? `kubeconform's -${given} is ${option.long} here`
      : flag.note !== undefined && (flag.commands ?? []).includes(command.name())
        ? `kubeconform's -${given}: ${flag.note}`
        : undefined;
  if (said === undefined) return text;
  const [first] = text.split('\n');
  return `${first ?? text}\n(${said})\n`;
}

/**
 * kubeconform's `-output json` as commander reads it, `-o` with the value `utput`: said as what
 * it is. `undefined` for any other value.
 */
export function kubeconformOutputHint(output: string): string | undefined {
  return output === 'utput'
    ? ' (kubeconform\'s "-output FORMAT" reads here as "-o utput": write -o FORMAT or --output FORMAT)'
    : undefined;
}
