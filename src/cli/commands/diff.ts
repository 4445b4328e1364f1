import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { defineDiff, DIFF_FORMATS } from './diff-definition.js';
import { MissingManifestsError } from '../../app/config-manifests.js';
import { diffProject, type ProjectDiff } from '../../app/diff-project.js';
import { ForeignStateError } from '../../app/foreign-state.js';
import { openState, type OpenedState } from '../../app/open-state.js';
import { formatStateLocation, parseStateUrl, StateUrlError } from '../../app/state-url.js';
import { toError } from '../../engine/errors.js';
import type { Finding } from '../../loaders/finding.js';
import { ConfigError } from '../../loaders/load-config.js';
import { EtcdUnreachableError } from '../../state-etcd/etcd-errors.js';
import type { CliCommand, CommandResult } from '../command.js';
import { MAX_WAIT_MS, parseDuration } from '../duration.js';
import { CliError, EXIT } from '../exit-codes.js';
import { useColor, type CliIo } from '../io.js';
import { toLoadingOptions, type LoadingFlags } from '../loading-options.js';
import { parseFormat } from '../options.js';
import { createColors, renderFindings } from '../render/report.js';
import {
  renderDiffText,
  summarizeChanges,
  toDiffEntries,
  writeDiffTrees,
} from '../render/resource-diff.js';
import { parseRequestTimeout } from '../state-option.js';

export interface DiffFlags extends LoadingFlags {
  file?: string[];
  state?: string;
  output: string;
  requestTimeout?: string;
  connectTimeout?: string;
  color?: boolean;
  quiet?: boolean;
}

/** What `cosi diff` shows: the changes, or the findings that kept it from comparing. */
export type DiffResult = ProjectDiff | { readonly refused: readonly Finding[] };

/** `cosi diff -f DIR --state URL`: what applying DIR would change in a running system. */
export const diffCommand: CliCommand<[string[], DiffFlags], DiffResult> = {
  define: defineDiff,
  run: diff,
  render: renderDiff,
};

/**
 * Reads the manifests and the state, and compares them; writes nothing anywhere. Exit 0: no
 * change, 1: changes, 2: the manifests have errors. Throws a CliError (exit 2, one line) when
 * the state cannot be reached or read, or is another project's.
 */
export async function diff(
  io: CliIo,
  paths: string[],
  flags: DiffFlags,
): Promise<CommandResult<DiffResult>> {
  if (flags.state === undefined) {
    throw new CliError("required option '--state <url>' not specified");
  }
  parseFormat(flags.output, DIFF_FORMATS);
  const loading = toLoadingOptions(flags);
  const files = [...(flags.file ?? []), ...paths];
  let location;
  try {
    location = parseStateUrl(flags.state);
  } catch (error) {
    if (error instanceof StateUrlError) throw new CliError(`--state: ${error.message}`);
    throw error;
  }
  if (location.kind !== 'etcd') {
    throw new CliError(
      '--state: diff compares with a running system: give its etcd://HOST:PORT[/prefix]',
    );
  }
  const requestTimeout = parseRequestTimeout(flags.requestTimeout ?? '5s');
  const connectTimeout = parseDuration(
    flags.connectTimeout ?? '5s',
    '--connect-timeout',
    MAX_WAIT_MS,
  );
  if (connectTimeout < 1) throw new CliError('--connect-timeout: at least 1ms');
  const where = formatStateLocation(location);
  let stdin: Uint8Array | string | undefined;
  if (files.includes('-')) {
    if (io.readStdin === undefined) throw new CliError('-f -: this process has no standard input');
    stdin = await io.readStdin();
  }
  // Opened once the manifests are read: a usage error never waits on etcd.
  const held: { opened?: OpenedState } = {};
  try {
    const result = await diffProject({
      state: async () => {
        const opened = openState(location, { requestTimeout });
        held.opened = opened;
        // One cheap question first: an etcd that is not there is said as such, in one line.
        await opened.etcd?.probe(connectTimeout, undefined, { wait: true });
        return opened.state;
      },
      // What `cosi run` applied last: only those are removals it makes.
      applied: () => held.opened?.etcd?.readAppliedSet() ?? Promise.resolve(undefined),
      files,
      // Given no paths, those the config names (and it must name some).
      ...(files.length === 0 ? { requireManifests: true } : {}),
      cwd: io.cwd,
      stateName: where,
      ...(stdin !== undefined ? { stdin } : {}),
      ...loading,
    });
    if ('refused' in result) return { exitCode: EXIT.usage, result };
    return { exitCode: result.changes.length > 0 ? EXIT.findings : EXIT.ok, result };
  } catch (error) {
    if (
      error instanceof ConfigError ||
      error instanceof CliError ||
      error instanceof MissingManifestsError
    )
      throw error;
    if (error instanceof ForeignStateError || error instanceof EtcdUnreachableError) {
      throw new CliError(error.message, EXIT.usage);
    }
    throw new CliError(`--state ${where}: ${toError(error).message}`, EXIT.usage);
  } finally {
    await held.opened?.close();
  }
}

/**
 * The diff to stdout (text: unified diffs; json: a list of entries); findings and a one-line
 * count to stderr.
 */
export function renderDiff(
  io: CliIo,
  { result }: CommandResult<DiffResult>,
  _paths: string[],
  flags: DiffFlags,
): void {
  const format = parseFormat(flags.output, DIFF_FORMATS);
  const colors = createColors(useColor(io, flags.color));
  if ('refused' in result) {
    io.stderr.write(renderFindings(result.refused, colors));
    return;
  }
  io.stderr.write(renderFindings(result.findings, colors));
  if (result.emptyState) {
    // As `get --state` says it: a mistyped prefix would otherwise read as "create everything".
    io.stderr.write(
      `cosi: --state ${formatStateLocation(parseStateUrl(flags.state ?? ''))} holds nothing cosi wrote: is the prefix the one \`cosi run --state\` was given? (every resource shows as created)\n`,
    );
  }
  if (format === 'json') {
    io.stdout.write(
      `${JSON.stringify(toDiffEntries(result.changes, createColors(false)), null, 2)}\n`,
    );
  } else if (io.env['COSI_EXTERNAL_DIFF'] && result.changes.length > 0) {
    runExternalDiff(io, io.env['COSI_EXTERNAL_DIFF'], result.changes);
  } else {
    io.stdout.write(renderDiffText(result.changes, colors));
  }
  if (!flags.quiet) io.stderr.write(`cosi: ${summarizeChanges(result.changes)}\n`);
}

/**
 * `COSI_EXTERNAL_DIFF` (as kubectl's `KUBECTL_EXTERNAL_DIFF`): the program, with its arguments
 * split at spaces, run on the two trees (`live` and `desired`, in a temporary directory it runs
 * in, removed after); its output is the diff's. The exit code stays cosi's (1: changes) when the
 * program says "same" or "different" (0 or 1, as diff does).
 *
 * @throws CliError (exit 2, as kubectl diff's above 1) when it cannot be run, or fails: an exit
 * code above 1, or a signal. The changes it was to show were not shown.
 */
function runExternalDiff(io: CliIo, command: string, changes: ProjectDiff['changes']): void {
  const dir = mkdtempSync(path.join(tmpdir(), 'cosi-diff-'));
  try {
    writeDiffTrees(changes, dir);
    const [program = '', ...args] = command.trim().split(/\s+/);
    const ran = spawnSync(program, [...args, 'live', 'desired'], { cwd: dir });
    if (ran.error !== undefined) {
      throw new CliError(
        `COSI_EXTERNAL_DIFF: cannot run ${program}: ${ran.error.message}, so the changes were not shown (${summarizeChanges(changes)})`,
        EXIT.usage,
      );
    }
    io.stdout.write(ran.stdout.toString());
    io.stderr.write(ran.stderr.toString());
    if (ran.status === null || ran.status > 1) {
      const how =
        ran.status === null ? `was killed by ${String(ran.signal)}` : `exited ${ran.status}`;
      throw new CliError(
        `COSI_EXTERNAL_DIFF: ${command.trim()} ${how}, so the changes were not shown (${summarizeChanges(changes)})`,
        EXIT.usage,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
