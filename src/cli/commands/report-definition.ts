/**
 * `cosi report`'s command-line definition (arguments, flags, help), apart from what runs it: the
 * program lists every command and its flags (help, completion) without loading any command.
 */
import { Command } from 'commander';
import { addPathArguments, addProjectOptions, collectList } from '../options.js';
import { addTraceOption } from '../trace-file.js';

/** `cosi report`: its commander definition. */
export function defineReport(): Command {
  const command = new Command('report')
    .summary('check a project and write one self-contained HTML page to open from CI')
    .description(
      'Runs what `cosi check` runs and writes one HTML file, with nothing fetched when it is ' +
        'opened: the verdict and summary; every finding with its file, line and a few lines of ' +
        'source; the dependency graph (drag to pan, Ctrl+wheel to zoom, click a node to see its ' +
        'resource, controller or type; the resources are drawn up to 300 of them); a searchable ' +
        'table of every resource with its spec and lineage (where it came from, as `cosi ' +
        "explain` traces it, and what came from it); and the run's timeline of reconciles. " +
        'The verdict, findings and graph read without JavaScript. `cosi check --report FILE` ' +
        'writes the same page beside its usual output.',
    );
  addTraceOption(addProjectOptions(addPathArguments(command)))
    .option(
      '-o, --output <file>',
      'the HTML file to write; - for the standard output',
      'report.html',
    )
    .option(
      '--strict',
      "fail on warnings too: fields a cosi type does not declare (a Kubernetes kind's unknown fields always fail), types no controller reads, YAML 1.1 booleans",
    )
    .option('--expect <dir>', 'compare the converged state with the expected manifests in <dir>')
    .option(
      '--skip-kinds <kinds>',
      'neither check nor load documents of these kinds (comma-separated, repeatable)',
      collectList,
    )
    .option(
      '--reject-kinds <kinds>',
      'report documents of these kinds as errors (comma-separated, repeatable)',
      collectList,
    )
    .option(
      '--ignore-unknown-kinds',
      'skip Kubernetes documents of kinds nothing defines, instead of failing; a kind Kubernetes rules out (apps/v1 Deploymnet) still fails',
    )
    .addHelpText(
      'after',
      `
Examples:
  cosi report -f manifests/ -o report.html
  cosi check -f manifests/ -o github --report report.html   # the same page, beside CI output

Exit codes: as cosi check: 0 clean, 1 findings, 2 usage or config error, 3 did not converge,
70 cosi itself failed (a bug, out of memory).
The report is written in every case but a file that cannot be written.`,
    );
  return command;
}
