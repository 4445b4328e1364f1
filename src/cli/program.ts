import { Command, CommanderError } from 'commander';
import { defineApply } from './commands/apply-definition.js';
import { defineCheck } from './commands/check-definition.js';
import { defineTest } from './commands/test-definition.js';
import { defineExplain } from './commands/explain-definition.js';
import { defineDiff } from './commands/diff-definition.js';
import { defineGet } from './commands/get-definition.js';
import { defineGraph } from './commands/graph-definition.js';
import { defineInit } from './commands/init-definition.js';
import { defineComplete } from './commands/complete-definition.js';
import { defineRun } from './commands/run-definition.js';
import { defineReport } from './commands/report-definition.js';
import { createCompletionCommand } from './commands/completion.js';
import { versionCommand } from './commands/version.js';
import { defineWatch } from './commands/watch-definition.js';
import { lazyCommand } from './lazy-command.js';
import { acceptShortOptionEquals } from './short-option-equals.js';
import { withLongOptionSuggestion } from './long-option-value-suggestion.js';
import { withHelpPointer } from './help-pointer.js';
import { withKubeconformFlag } from './kubeconform-flags.js';
import type { CliCommand, CommandResult } from './command.js';
import { EXIT } from './exit-codes.js';
import { didYouMean } from '../engine/did-you-mean.js';
import type { CliIo } from './io.js';
import { VERSION } from './version.js';
import { jsonErrorLines, logsAsJson } from './json-error-lines.js';

// Each command's module is imported when it runs (see lazyCommand); each under the name its
// definition gives it.
const COMMANDS = [
  [
    'apply',
    lazyCommand(defineApply, async () => (await import('./commands/apply.js')).applyCommand),
  ],
  ['get', lazyCommand(defineGet, async () => (await import('./commands/get.js')).getCommand)],
  ['diff', lazyCommand(defineDiff, async () => (await import('./commands/diff.js')).diffCommand)],
  [
    'check',
    lazyCommand(defineCheck, async () => (await import('./commands/check.js')).checkCommand),
  ],
  ['test', lazyCommand(defineTest, async () => (await import('./commands/test.js')).testCommand)],
  [
    'graph',
    lazyCommand(defineGraph, async () => (await import('./commands/graph.js')).graphCommand),
  ],
  [
    'report',
    lazyCommand(defineReport, async () => (await import('./commands/report.js')).reportCommand),
  ],
  [
    'explain',
    lazyCommand(defineExplain, async () => (await import('./commands/explain.js')).explainCommand),
  ],
  [
    'watch',
    lazyCommand(defineWatch, async () => (await import('./commands/watch.js')).watchCommand),
  ],
  ['run', lazyCommand(defineRun, async () => (await import('./commands/run.js')).runCommand)],
  ['init', lazyCommand(defineInit, async () => (await import('./commands/init.js')).initCommand)],
  [
    '__complete',
    lazyCommand(
      defineComplete,
      async () => (await import('./commands/complete.js')).completeCommand,
    ),
  ],
  ['version', versionCommand],
] as const;

/** A commander program and the result of the command it ran, once `parseAsync` has finished. */
export interface Cli {
  readonly program: Command;
  result(): CommandResult<unknown> | undefined;
}

/** Options of {@link createCli}. */
export interface CliOptions {
  /**
   * The one command to define, by name, when the line is known to run it (a worker runs the
   * command it was started for): defining the dozen others is a few ms of every start.
   */
  readonly only?: string;
}

/** The commands' names, in the order they are defined (for tests and tools). */
export const COMMAND_NAMES: readonly string[] = COMMANDS.map(([name]) => name);

/**
 * A fresh commander program writing to `io`, its actions the commands' functions. Commander's own
 * exits (help, usage errors) are thrown as `CommanderError`s.
 */
export function createCli(io: CliIo, { only }: CliOptions = {}): Cli {
  let result: CommandResult<unknown> | undefined;
  const program = new Command('cosi')
    .description('Run COSI controllers on YAML manifests, without a cluster.')
    .version(VERSION)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(usageErrorLine(text)),
    })
    .showSuggestionAfterError()
    .addHelpText(
      'after',
      `
Examples:
  cosi init my-project                        start a project: config, manifest, golden test, CI job
  cosi check --expect expected                in a project (its config names the manifests: no -f)
  cosi apply -f manifests/                    run the project on its manifests and print the state
  cosi get vm -f manifests/ -o yaml           print one type after the run
  cosi watch -f manifests/                    re-run on every file change, with a live view
  cosi report -f DIR -o report.html           check, and write one HTML page to open from CI
  cosi run -f DIR --state etcd://HOST:PORT    serve the project on a shared state, leader-elected
  cosi diff -f DIR --state etcd://HOST:PORT   show what applying DIR would change there
  source <(cosi completion bash)              complete commands and flags in bash`,
    );
  const completion = ['completion', createCompletionCommand(() => program.commands)] as const;
  const commands = [...COMMANDS, completion]
    .filter(([name]) => only === undefined || name === only)
    .map(([, command]) => command) as readonly CliCommand<unknown[], unknown>[];
  for (const command of commands) {
    const definition = acceptShortOptionEquals(command.define());
    program.addCommand(
      definition
        .exitOverride()
        .configureOutput({
          writeOut: (text) => io.stdout.write(text),
          writeErr: (text) => io.stderr.write(text),
          outputError: (text, write) =>
            write(
              usageErrorLine(
                withHelpPointer(
                  withKubeconformFlag(withLongOptionSuggestion(text, definition), definition),
                  definition.name(),
                ),
              ),
            ),
        })
        // Commander passes the positional arguments, the flags, then the command itself. The
        // command returns its data; its renderer prints it.
        .action(async (...args: unknown[]) => {
          const given = args.slice(0, -1);
          result = await command.run(io, ...given);
          await command.render(io, result, ...given);
        }),
      // `__complete` serves the completion scripts: not for help.
      { hidden: definition.name().startsWith('__') },
    );
  }
  return { program, result: () => result };
}

/**
 * `cosi help nope`: said as an unknown command is (`cosi nope`), with the nearest; commander
 * printed the whole help instead, and nothing about the word. `undefined`: a command's help.
 */
function unknownHelpTopic(argv: readonly string[], program: Command): string | undefined {
  const [word, topic] = argv;
  if (word !== 'help' || topic === undefined || topic === 'help' || topic.startsWith('-')) {
    return undefined;
  }
  const names = program.commands.filter((c) => !c.name().startsWith('__')).map((c) => c.name());
  if (program.commands.some((c) => c.name() === topic || c.aliases().includes(topic))) {
    return undefined;
  }
  const near = didYouMean(topic, names);
  return `cosi: help: unknown command '${topic}'${near === undefined ? '' : `\n(Did you mean ${near}?)`}\n`;
}

/**
 * Commander's usage error (`error: unknown option '--bogus'`) as cosi says its errors, `cosi: `
 * first; a missing type says where the types are listed.
 */
function usageErrorLine(text: string): string {
  const line = text.replace(/^error: /, 'cosi: ');
  if (line.includes("missing required argument 'type'")) {
    return line.replace(/\n?$/, ' (cosi get rd lists the types)\n');
  }
  // The docs speak of "explain and trace": a run's trace is a flag, not a command.
  if (/^cosi: unknown command 'trace'$/m.test(line)) {
    return line.replace(
      /\n?$/,
      "\n(a run's trace is a flag: cosi apply --trace FILE, as check and watch take it; cosi explain follows one resource)\n",
    );
  }
  return line;
}

/**
 * Runs the CLI on `argv` (without `node` and the script) and returns the exit code. The one
 * top-level catch: commander's own exits (help, version: 0; usage errors: 2) here, any other
 * error as {@link exitCodeOfError} maps it, loaded only when there is one.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
  options: CliOptions = {},
): Promise<number> {
  // A run logging JSON says its errors as JSON too (json-error-lines.ts).
  const said = logsAsJson(argv) ? { ...io, stderr: jsonErrorLines(io.stderr) } : io;
  const cli = createCli(said, options);
  const unknownHelp = options.only === undefined ? unknownHelpTopic(argv, cli.program) : undefined;
  if (unknownHelp !== undefined) {
    said.stderr.write(unknownHelp);
    return EXIT.usage;
  }
  try {
    await cli.program.parseAsync([...argv], { from: 'user' });
    return cli.result()?.exitCode ?? EXIT.ok;
  } catch (thrown) {
    if (thrown instanceof CommanderError) {
      if (thrown.exitCode === 0) return EXIT.ok;
      const { writeUsageErrorReport } = await import('./usage-error-report.js');
      await writeUsageErrorReport(argv, thrown.message, io);
      return EXIT.usage;
    }
    return (await import('./exit-code-of-error.js')).exitCodeOfError(thrown, said);
  }
}
