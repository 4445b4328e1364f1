import { defineApply, APPLY_FORMATS } from './apply-definition.js';
import type { CliCommand, CommandResult } from '../command.js';
import type { CliIo } from '../io.js';
import type { CommonFlags } from '../options.js';
import { parseResourceFormat } from './resource-output.js';
import { parseSortBy, sortResourceGroups } from '../render/sort-resources.js';
import { writeResources } from '../render/resources.js';
import { selectResources, type ResourceGroup } from '../../app/resource-query.js';
import { parseLabelSelector } from '../label-selector.js';
import { convergeAndSelect } from './converge-and-select.js';
import { renderReportedRun, type ReportedRun } from '../render/reported-run.js';
import { writeTraceFile, type TraceFlags } from '../trace-file.js';
import { EXIT } from '../exit-codes.js';

export interface ApplyFlags extends CommonFlags, TraceFlags {
  output: string;
  namespace?: string;
  selector?: string;
  type?: string[];
  /** `--no-headers` (commander's negation: `false` when given). */
  headers?: boolean;
  showLabels?: boolean;
  sortBy?: string;
  /** Exit 1 when a kro RGD instance stays in progress (an `rgd-waiting` warning). */
  requireReady?: boolean;
}

/** What `cosi apply` shows: the run (findings, converged state, report) and the resources asked for. */
export type ApplyResult = ReportedRun<ResourceGroup[]>;

/** `cosi apply -f PATH...`: load, validate, converge, print the resulting state. */
export const applyCommand: CliCommand<[string[], ApplyFlags], ApplyResult> = {
  define: defineApply,
  run: apply,
  render: renderApply,
};

export async function apply(
  io: CliIo,
  paths: string[],
  flags: ApplyFlags,
): Promise<CommandResult<ApplyResult>> {
  parseResourceFormat(flags.output, APPLY_FORMATS);
  if (flags.sortBy !== undefined) parseSortBy(flags.sortBy);
  const selector = flags.selector === undefined ? undefined : parseLabelSelector(flags.selector);
  if (flags.trace !== undefined) {
    await (await import('../output-file.js')).checkOutputPath(flags.trace, io.cwd);
  }
  const reported = await convergeAndSelect(
    flags,
    io,
    paths,
    (outcome) =>
      selectResources(outcome, {
        ...(flags.type !== undefined ? { type: flags.type } : {}),
        ...(flags.namespace !== undefined ? { namespace: flags.namespace } : {}),
        ...(selector !== undefined ? { selector } : {}),
      }),
    { record: flags.trace !== undefined },
  );
  const waiting =
    flags.requireReady === true &&
    reported.exitCode === EXIT.ok &&
    (reported.run.outcome?.findings ?? []).some((f) => f.code === 'rgd-waiting');
  return { exitCode: waiting ? EXIT.findings : reported.exitCode, result: reported };
}

/**
 * Findings and the report to stderr, the resources to stdout in the `-o` format; then the
 * `--trace` file.
 */
export async function renderApply(
  io: CliIo,
  { result }: CommandResult<ApplyResult>,
  _paths: string[],
  flags: ApplyFlags,
): Promise<void> {
  const format = parseResourceFormat(flags.output, APPLY_FORMATS);
  renderReportedRun(io, result, flags, (groups) =>
    writeResources(
      flags.sortBy === undefined
        ? groups
        : sortResourceGroups(groups, parseSortBy(flags.sortBy), { requireValue: true }),
      format,
      (chunk) => io.stdout.write(chunk),
      {
        stable: flags.stable === true,
        noHeaders: flags.headers === false,
        showLabels: flags.showLabels === true,
      },
    ),
  );
  const project = result.run.outcome?.project;
  if (flags.trace !== undefined && project?.record) {
    await writeTraceFile(flags.trace, project.record, {
      cwd: io.cwd,
      stable: flags.stable === true,
      registry: project.registry,
    });
  }
}
