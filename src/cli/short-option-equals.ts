import type { Command } from 'commander';

/**
 * Lets a command take a short flag's value after `=` (`-o=yaml`, `-n=default`,
 * `-o=jsonpath={.spec.cpus}`), as kubectl's flag parser does and its documentation writes it.
 * Commander reads `-o=yaml` as `-o` with the value `=yaml`: an unknown format, and worse,
 * `-n=default` a namespace nothing is in. The command's own parse sees `-o yaml` instead.
 */
export function acceptShortOptionEquals(command: Command): Command {
  const valueFlags = new Set(
    command.options
      .filter((option) => option.required || option.optional)
      .flatMap((option) => [option.short, option.long])
      .filter((flag): flag is string => flag !== undefined),
  );
  const parseOptions = command.parseOptions.bind(command);
  command.parseOptions = (args) => parseOptions(splitShortOptionValues(args, valueFlags));
  return command;
}

/**
 * `args` with each `-x=VALUE` of a short flag in `valueFlags` split into `-x` and `VALUE`. A
 * word that is a flag's value (after `-x` or `--long` given alone) stays as it is, and so does
 * everything after `--`.
 */
export function splitShortOptionValues(
  args: readonly string[],
  valueFlags: ReadonlySet<string>,
): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    const short = /^(-[^-])=(.*)$/s.exec(arg);
    if (short !== null && valueFlags.has(short[1] as string)) {
      out.push(short[1] as string, short[2] as string);
      continue;
    }
    out.push(arg);
    if (valueFlags.has(arg) && i + 1 < args.length) out.push(args[++i] as string);
  }
  return out;
}
