/**
 * `cosi test`'s command-line definition (arguments, flags, help), apart from what runs it: the
 * program lists every command and its flags (help, completion) without loading any command.
 */
import { Command } from 'commander';
import { CHECK_REPORT_FORMATS } from '../render/check/check-formats.js';
import { collectPaths, outputOption, verboseOption } from '../options.js';

/** `cosi test`: its commander definition. */
export function defineTest(): Command {
  return new Command('test')
    .summary('run test scenarios (*.cosi-test.yaml) against the project, step by step')
    .description(
      'Runs every scenario file (*.cosi-test.yaml) below the given paths (default: the working ' +
        'directory), each scenario on a fresh project: apply, edit, destroy, advance the clock, ' +
        'and expect resources, their absence, findings or a refusal. Reports each step, a failure ' +
        "with a diff at the scenario's file:line, in cosi check's formats.",
    )
    .argument('[paths...]', 'scenario files or directories to search')
    .option(
      '-f, --file <path>',
      'a scenario file or directory to search, as the paths (repeatable, or comma-separated)',
      collectPaths,
    )
    .option(
      '--name <pattern>',
      'run only the scenarios whose name matches this regular expression (unanchored); one that matches none is a usage error',
    )
    .option(
      '--config <path>',
      "project config, or a directory holding one, of the scenarios that name none (a scenario's config: wins; default: cosi.config.{ts,mts,js,mjs} next to its manifests or above it)",
    )
    .addOption(outputOption(CHECK_REPORT_FORMATS, 'text'))
    .option(
      '--timeout <duration>',
      'virtual-time bound of each convergence, and wall time a controller may run without yielding or wait on nothing (e.g. 5s; at most 60s of wall time)',
    )
    .option('--no-color', 'never color the output')
    .addOption(verboseOption())
    .addHelpText(
      'after',
      `
Examples:
  cosi test                      # every *.cosi-test.yaml below the working directory
  cosi test tests/ -o junit > report.xml
  cosi test apps.cosi-test.yaml --name '^new app$'   # one scenario of a file

A controller stuck in a loop, out of heap or ending the thread fails its step, at the step's
line; the scenarios after it run.

Exit codes: 0 every step passed, 1 a step failed, 2 a scenario that cannot run (bad file, config),
70 cosi itself failed (a bug, out of memory).`,
    );
}
