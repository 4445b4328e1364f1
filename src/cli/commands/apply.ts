import { Command } from 'commander';
import type { CliCommand, CommandResult } from '../command.js';
import type { CliIo } from '../io.js';
import {
  addPathArguments,
  addProjectOptions,
  collect,
  outputOption,
  parseFormat,
  type CommonFlags,
} from '../options.js';
import { writeResources } from '../render/resources.js';
import { selectResources } from '../resource-query.js';
import { parseLabelSelector } from '../label-selector.js';
import { runAndReport } from './run-and-report.js';
import { addTraceOption, writeTraceFile, type TraceFlags } from '../trace-file.js';

const FORMATS = ['table', 'wide', 'yaml', 'json', 'name'] as const;

export interface ApplyFlags extends CommonFlags, TraceFlags {
  output: string;
  namespace?: string;
  selector?: string;
  type?: string[];
}

/** `cosi apply -f PATH...`: load, validate, converge, print the resulting state. */
export const applyCommand: CliCommand<[string[], ApplyFlags]> = { define, run: apply };

function define(): Command {
  const command = new Command('apply')
    .summary('run the controllers on manifests and print the resulting state')
    .description(
      'Loads every *.yaml / *.yml below the given paths, validates them, registers the controllers ' +
        "of the project's cosi.config.ts, runs them to convergence on a simulated clock and prints " +
        'the resulting state. Invalid manifests stop before any controller runs.',
    );
  addTraceOption(addProjectOptions(addPathArguments(command)))
    .addOption(outputOption(FORMATS, 'table'))
    .option('-n, --namespace <namespace>', 'print only this namespace')
    .option(
      '-l, --selector <selector>',
      'print only what matches this label selector (a=b,c!=d,e in (x,y))',
    )
    .option('-t, --type <type>', 'print only this type, any alias (repeatable)', collect)
    .addHelpText(
      'after',
      `
Examples:
  cosi apply -f fixtures/vm-network
  cosi apply -f manifests/ -o yaml --stable > expected.yaml
  cosi apply -f vms.yaml -f hosts.yaml --config ./cosi.config.ts -t vm

Exit codes: 0 converged, 1 invalid manifests or failing controllers, 2 usage or config error,
3 did not converge.`,
    );
  return command;
}

export async function apply(io: CliIo, paths: string[], flags: ApplyFlags): Promise<CommandResult> {
  const format = parseFormat(flags.output, FORMATS);
  const selector = flags.selector === undefined ? undefined : parseLabelSelector(flags.selector);
  const { run, exitCode } = await runAndReport(
    flags,
    io,
    paths,
    (outcome) => {
      const groups = selectResources(outcome, {
        ...(flags.type !== undefined ? { type: flags.type } : {}),
        ...(flags.namespace !== undefined ? { namespace: flags.namespace } : {}),
        ...(selector !== undefined ? { selector } : {}),
      });
      writeResources(groups, format, (chunk) => io.stdout.write(chunk), {
        stable: flags.stable === true,
      });
      return undefined;
    },
    { record: flags.trace !== undefined },
  );
  const record = run.outcome?.project.record;
  if (flags.trace !== undefined && record) {
    await writeTraceFile(flags.trace, record, { cwd: io.cwd, stable: flags.stable === true });
  }
  return { exitCode };
}
