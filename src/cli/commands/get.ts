import { defineGet, GET_FORMATS } from './get-definition.js';
import { CliError, EXIT, type ExitCode } from '../exit-codes.js';
import type { CliCommand, CommandResult } from '../command.js';
import type { CliIo } from '../io.js';
import { parseFormat, type CommonFlags } from '../options.js';
import {
  customColumnsFormat,
  jsonPathFormat,
  writeResources,
  type ResourceFormat,
} from '../render/resources.js';
import { selectResources, type QueriedState } from '../resource-query.js';
import { readStateFlag } from '../state-option.js';
import { parseLabelSelector } from '../label-selector.js';
import { runAndReport } from './run-and-report.js';

export interface GetFlags extends CommonFlags {
  output: string;
  namespace?: string;
  selector?: string;
  /** Read a running system's state instead of running the project. */
  state?: string;
  /** With --state: how long a request waits for etcd (`5s`). */
  requestTimeout?: string;
}

/** `cosi get TYPE [ID] -f PATH...`: the same run as apply, then one type or one resource. */
export const getCommand: CliCommand<[string, string | undefined, GetFlags]> = {
  define: defineGet,
  run: get,
};

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
  const view = await readStateFlag(flags.state, flags.requestTimeout, io.stderr);
  if (view) {
    // A kind left out (a corrupt value, said on stderr) fails the command that asks for it,
    // and only that one.
    const asked = type.split(',').map((name) => {
      try {
        return view.registry.resolve(name).type;
      } catch {
        return name;
      }
    });
    if (view.unreadable.some(({ kind }) => asked.includes(kind.type))) {
      return { exitCode: EXIT.findings };
    }
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

function parseGetFormat(output: string): ResourceFormat {
  if (output.startsWith('jsonpath=')) return jsonPathFormat(output.slice('jsonpath='.length));
  if (output.startsWith('custom-columns=')) {
    return customColumnsFormat(output.slice('custom-columns='.length));
  }
  return parseFormat(output, GET_FORMATS) as ResourceFormat;
}
