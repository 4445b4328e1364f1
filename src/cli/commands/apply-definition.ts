/**
 * `cosi apply`'s command-line definition (arguments, flags, help), apart from what runs it: the
 * program lists every command and its flags (help, completion) without loading any command.
 */
import { Command } from 'commander';
import {
  addPathArguments,
  addProjectOptions,
  addResourceTableOptions,
  collectTypes,
  outputOption,
  RESOURCE_FORMATS,
} from '../options.js';
import { addTraceOption } from '../trace-file.js';

/** The output formats of `cosi apply`. */
export const APPLY_FORMATS = RESOURCE_FORMATS;

/** `cosi apply`: its commander definition. */
export function defineApply(): Command {
  const command = new Command('apply')
    .summary('run the controllers on manifests and print the resulting state')
    .description(
      'Loads every *.yaml / *.yml (and JSON manifest) below the given paths, validates them, registers the controllers ' +
        "of the project's cosi.config.ts, runs them to convergence on a simulated clock and prints " +
        'the resulting state. Invalid manifests stop before any controller runs, but for a kro ' +
        'ResourceGraphDefinition that does not load: the other controllers run, and the exit code is 1.',
    );
  addResourceTableOptions(
    addTraceOption(addProjectOptions(addPathArguments(command)))
      .addOption(outputOption(APPLY_FORMATS, 'table'))
      .option('-n, --namespace <namespace>', 'print only this namespace')
      .option(
        '-l, --selector <selector>',
        'print only what matches this label selector (a=b,c!=d,e in (x,y))',
      )
      .option(
        '-t, --type <type>',
        'print only this type, any alias (repeatable, or comma-separated)',
        collectTypes,
      ),
  )
    .option(
      '--require-ready',
      'exit 1 when a kro RGD instance stays in progress (waits on status no controller writes)',
    )
    .addHelpText(
      'after',
      `
Examples:
  cosi apply -f manifests/
  cosi apply -f manifests/ -o yaml --stable > expected.yaml
  cosi apply -f vms.yaml -f hosts.yaml --config ./cosi.config.ts -t vm
  cosi apply -f manifests/ -t vm -o jsonpath='{.metadata.id}'

Exit codes: 0 converged, 1 invalid manifests or failing controllers (or, with --require-ready,
an RGD instance in progress), 2 usage or config error, 3 did not converge, 70 cosi itself failed (a bug, out of memory).`,
    );
  return command;
}
