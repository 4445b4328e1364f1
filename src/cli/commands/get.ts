import { Command } from 'commander';
import { CliError, EXIT, type ExitCode } from '../exit-codes.js';
import type { CliCommand, CommandResult } from '../command.js';
import type { CliIo } from '../io.js';
import { addProjectOptions, outputOption, parseFormat, type CommonFlags } from '../options.js';
import {
  customColumnsFormat,
  jsonPathFormat,
  writeResources,
  type ResourceFormat,
} from '../render/resources.js';
import { selectResources, type QueriedState } from '../resource-query.js';
import { readStateFlag, stateOption } from '../state-option.js';
import { parseLabelSelector } from '../label-selector.js';
import { runAndReport } from './run-and-report.js';

export interface GetFlags extends CommonFlags {
  output: string;
  namespace?: string;
  selector?: string;
  /** Read a running system's state instead of running the project. */
  state?: string;
}

/** `cosi get TYPE [ID] -f PATH...`: the same run as apply, then one type or one resource. */
export const getCommand: CliCommand<[string, string | undefined, GetFlags]> = { define, run: get };

function define(): Command {
  const command = new Command('get')
    .summary('run the controllers on manifests and print one type or one resource')
    .description(
      'Runs the project like `cosi apply`, then prints the resources of one type (any alias, ' +
        'case-insensitive), of several (`vm,host`), or one resource by id (`vm web-1` or ' +
        '`vm/web-1`).',
    )
    .argument(
      '<type>',
      'resource type or alias (e.g. vm, VMs.example.org, rd), vm,host, or vm/web-1',
    )
    .argument('[id]', 'resource id');
  addProjectOptions(command)
    .addOption(outputOption(GET_FORMATS, 'table'))
    .option('-n, --namespace <namespace>', 'namespace (default: all)')
    .option(
      '-l, --selector <selector>',
      'only what matches this label selector (a=b,c!=d,e in (x,y))',
    )
    .addOption(stateOption())
    .addHelpText(
      'after',
      `
Examples:
  cosi get vms -f fixtures/vm-network
  cosi get networkconfig web-1 -f fixtures/vm-network -o yaml
  cosi get vm/web-1 -f fixtures/vm-network
  cosi get vm,host -f fixtures/vm-network
  cosi get vm web-1 -f fixtures/vm-network -o jsonpath='{.spec.cpus}'
  cosi get rd -f fixtures/vm-network
  cosi get vms --state etcd://127.0.0.1:2379/prod   (what a running cosi run holds)`,
    );
  return command;
}

export async function get(
  io: CliIo,
  type: string,
  id: string | undefined,
  flags: GetFlags,
): Promise<CommandResult> {
  const format = parseGetFormat(flags.output);
  const selector = flags.selector === undefined ? undefined : parseLabelSelector(flags.selector);
  ({ type, id } = splitTypeArgument(type, id));
  const print = (outcome: QueriedState): ExitCode | undefined => {
    const groups = selectResources(outcome, {
      type: type.split(','),
      ...(id !== undefined ? { id } : {}),
      ...(flags.namespace !== undefined ? { namespace: flags.namespace } : {}),
      ...(selector !== undefined ? { selector } : {}),
    });
    if (id !== undefined && groups.length === 0) {
      io.stderr.write(
        `cosi: resource ${JSON.stringify(id)} of type ${JSON.stringify(type)} not found\n`,
      );
      return EXIT.findings;
    }
    // As kubectl: an empty answer is said on stderr, so stdout stays empty for scripts.
    if (groups.length === 0) io.stderr.write('No resources found\n');
    else {
      writeResources(groups, format, (chunk) => io.stdout.write(chunk), {
        stable: flags.stable === true,
        single: id !== undefined,
      });
    }
    return undefined;
  };
  const view = await readStateFlag(flags.state);
  if (view) {
    return { exitCode: print({ project: view, snapshot: view.snapshot }) ?? EXIT.ok };
  }
  const { exitCode } = await runAndReport(flags, io, [], print);
  return { exitCode };
}

/** `vm/web-1` is `vm web-1`, as kubectl takes `TYPE/NAME`. */
function splitTypeArgument(
  type: string,
  id: string | undefined,
): { type: string; id: string | undefined } {
  const slash = type.indexOf('/');
  if (slash < 0) return { type, id };
  if (id !== undefined) {
    throw new CliError(`get: give the id once, as ${type} or as a second argument, not both`);
  }
  return { type: type.slice(0, slash), id: type.slice(slash + 1) };
}

const GET_FORMATS = [
  'table',
  'wide',
  'yaml',
  'json',
  'name',
  'jsonpath=TEMPLATE',
  'custom-columns=NAME:PATH,...',
] as const;

function parseGetFormat(output: string): ResourceFormat {
  if (output.startsWith('jsonpath=')) return jsonPathFormat(output.slice('jsonpath='.length));
  if (output.startsWith('custom-columns=')) {
    return customColumnsFormat(output.slice('custom-columns='.length));
  }
  return parseFormat(output, GET_FORMATS) as ResourceFormat;
}
