import { defineApply, APPLY_FORMATS } from './apply-definition.js';
import type { CliCommand, CommandResult } from '../command.js';
import type { CliIo } from '../io.js';
import { parseFormat, type CommonFlags } from '../options.js';
import { writeResources } from '../render/resources.js';
import { selectResources } from '../../app/resource-query.js';
import { parseLabelSelector } from '../label-selector.js';
import { runAndReport } from './run-and-report.js';
import { writeTraceFile, type TraceFlags } from '../trace-file.js';

export interface ApplyFlags extends CommonFlags, TraceFlags {
  output: string;
  namespace?: string;
  selector?: string;
  type?: string[];
}

/** `cosi apply -f PATH...`: load, validate, converge, print the resulting state. */
export const applyCommand: CliCommand<[string[], ApplyFlags]> = { define: defineApply, run: apply };

export async function apply(io: CliIo, paths: string[], flags: ApplyFlags): Promise<CommandResult> {
  const format = parseFormat(flags.output, APPLY_FORMATS);
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
