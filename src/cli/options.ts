import { Option, type Command } from 'commander';
import { parseDuration } from './duration.js';
import { CliError } from './exit-codes.js';
import { didYouMean } from '../engine/did-you-mean.js';
import { kubeconformOutputHint } from './kubeconform-flags.js';
import { displayPath } from '../app/display-path.js';
import type { RunProjectOptions } from '../app/run-project.js';
import type { CliIo } from './io.js';
import { collectPaths } from './collect-flag.js';
import { addLoadingOptions, toLoadingOptions, type LoadingFlags } from './loading-options.js';

export { collect, collectPaths } from './collect-flag.js';

/** The flags every command that loads a project shares. */
export interface CommonFlags extends LoadingFlags {
  file?: string[];
  stable?: boolean;
  timeout?: string;
  maxWrites?: string;
  color?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

/** A repeatable, comma-separated list option: `--skip-kinds A,B --skip-kinds C`. */
export const collectList = (value: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  ...value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== ''),
];

/**
 * `-t vm,host -t nc`: repeatable, and comma-separated, as `get vm,host` takes types. An empty
 * value stays, to be refused as the type it does not name, rather than select every type.
 */
export const collectTypes = (value: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  ...(value.trim() === ''
    ? ['']
    : value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '')),
];

/**
 * Adds `-f`, `--ignore`, `--definitions`, `--schema-location`, `--schema-cache`, `--kubernetes-version`, `--config`, `--stable`, `--timeout`, `--max-writes`, `--no-color`,
 * `-q`, `-v`.
 */
export function addProjectOptions(command: Command): Command {
  return addLoadingOptions(
    command.option(
      '-f, --file <path>',
      'manifest file, directory or glob; - for the standard input (repeatable, or comma-separated)',
      collectPaths,
    ),
  )
    .option('--stable', 'pin timestamps and omit wall time, so output can be diffed')
    .option('--timeout <duration>', 'virtual-time bound of the run (e.g. 30s, 10m)', '1h')
    .option('--max-writes <n>', 'write bound of the run (default: 50 per resource, at least 10000)')
    .option('--no-color', 'never color the output')
    .addOption(quietOption())
    .addOption(verboseOption());
}

/** `-q`: the same flag on every command that prints a summary. */
export function quietOption(): Option {
  return new Option('-q, --quiet', 'print no summary');
}

/** `-v`: the same flag on every command that runs the project's controllers to an end. */
export function verboseOption(): Option {
  return new Option('-v, --verbose', 'print controller logs to stderr');
}

/** `-o` with the given formats. */
export function outputOption(formats: readonly string[], fallback: string): Option {
  return new Option('-o, --output <format>', `output format: ${formats.join(', ')}`).default(
    fallback,
  );
}

/** Manifest paths may also be given as arguments (`cosi check manifests/`), as kubeconform takes them. */
export function addPathArguments(command: Command): Command {
  return command.argument('[paths...]', 'manifest files, directories or globs (as -f)');
}

/**
 * Turns the shared flags (and path arguments) into what a run of the project takes: `-v` sends
 * logs to stderr, `-` reads the standard input.
 */
export async function toRunOptions(
  flags: CommonFlags,
  io: Pick<CliIo, 'cwd' | 'stderr' | 'readStdin' | 'monitor'>,
  {
    manifestsOptional = false,
    paths = [],
    record = false,
  }: {
    /** `true`: no manifests are needed with `--config`; `'always'`: none are needed at all. */
    manifestsOptional?: boolean | 'always';
    paths?: readonly string[];
    record?: boolean;
  } = {},
): Promise<RunProjectOptions> {
  const files = [...(flags.file ?? []), ...paths];
  const optional =
    manifestsOptional === 'always' || (manifestsOptional && flags.config !== undefined);
  let maxWrites: number | undefined;
  if (flags.maxWrites !== undefined) {
    maxWrites = Number(flags.maxWrites);
    if (!Number.isInteger(maxWrites) || maxWrites <= 0) {
      throw new CliError(
        `--max-writes: expected a positive integer, got ${JSON.stringify(flags.maxWrites)}`,
      );
    }
  }
  // The log renderer is loaded only when logs are asked for.
  const formatLog = flags.verbose ? (await import('./render/logs.js')).formatLog : undefined;
  let stdin: Uint8Array | string | undefined;
  if (files.includes('-')) {
    if (io.readStdin === undefined) throw new CliError('-f -: this process has no standard input');
    stdin = await io.readStdin();
  }
  return {
    files,
    // Given no paths, the run reads those the project's config names (and needs some).
    ...(files.length === 0 && !optional ? { requireManifests: true } : {}),
    cwd: io.cwd,
    ...(stdin !== undefined ? { stdin } : {}),
    ...toLoadingOptions(flags),
    ...(formatLog
      ? {
          onLog: (record) => io.stderr.write(formatLog(record)),
          onConfig: (config) =>
            io.stderr.write(
              config
                ? `cosi: config ${displayPath(io.cwd, config.file)}\n`
                : 'cosi: no config found: the manifests are only validated\n',
            ),
        }
      : {}),
    ...(flags.stable ? { stable: true } : {}),
    ...(record ? { record: true } : {}),
    ...(flags.timeout !== undefined ? { timeout: parseDuration(flags.timeout, '--timeout') } : {}),
    ...(maxWrites !== undefined ? { maxWrites } : {}),
    ...(io.monitor !== undefined ? { monitor: io.monitor } : {}),
  };
}

/** The `-o` formats of the commands that print resources (`get`, `apply`). */
export const RESOURCE_FORMATS = [
  'table',
  'wide',
  'yaml',
  'json',
  'name',
  'jsonpath=TEMPLATE',
  'jsonpath-as-json=TEMPLATE',
  'custom-columns=NAME:PATH,...',
] as const;

/** `--no-headers`, `--show-labels` and `--sort-by`: kubectl's habits for tables of resources. */
export function addResourceTableOptions(command: Command): Command {
  return command
    .option('--no-headers', 'tables without their header line')
    .option('--show-labels', "tables end with each resource's labels")
    .option(
      '--sort-by <jsonpath>',
      'order the resources of each type by this field of their document (.spec.cpus, .metadata.id)',
    );
}

/**
 * The `-o` value as one of `formats`.
 * @throws CliError (usage) listing the formats.
 */
export function parseFormat<F extends string>(output: string, formats: readonly F[]): F {
  const format = formats.find((f) => f === output);
  if (format !== undefined) return format;
  // As an unknown flag or command gets one: `-o dott`, `-o JSON`, `-o jsonpath` (no template).
  const heads = formats.map((f) => f.split('=')[0] ?? f);
  const near = output.includes('=') ? undefined : didYouMean(output, heads);
  const suggestion =
    kubeconformOutputHint(output) ??
    (near === undefined ? '' : ` (did you mean ${JSON.stringify(formats[heads.indexOf(near)])}?)`);
  throw new CliError(
    `-o: unknown format ${JSON.stringify(output)}${suggestion} (expected ${formats.join(', ')})`,
  );
}
