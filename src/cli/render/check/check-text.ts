import { formatLocation } from '../../../loaders/finding.js';
import type { ChalkInstance } from 'chalk';
import { escapeControl } from '../escape-control.js';
import { groupDigits } from './group-digits.js';
import { missingDefinitionsNote } from './missing-definitions-note.js';
import { ShownFindings } from './shown-findings.js';
import { ToolKindFiles } from './tool-kind-files.js';
import { RepeatedWarnings } from '../repeated-warnings.js';
import { formatUnrenderedCounts, COUNTED_ONLY_KINDS } from '../../../loaders/unrendered-counts.js';
import type { UnrenderedSource } from '../../../loaders/unrendered-source.js';
import {
  isFailure,
  summarize,
  summarizeResources,
  summarizeScenarios,
  checkTotals,
  type CheckResult,
  type ResourceSummary,
} from '../../../app/check/check-result.js';

/** Findings, one per line (diffs indented below), then `check: N passed, N failed` per class and overall. */
export function renderCheckText(
  result: CheckResult,
  c: ChalkInstance,
  options: { readonly quiet?: boolean } = {},
): string {
  const lines: string[] = [];
  const shown = new ShownFindings(result);
  const repeated = new RepeatedWarnings();
  const toolKinds = new ToolKindFiles();
  for (const item of result.cases) {
    for (const f of item.findings) {
      const failure = isFailure(f, result);
      if (!repeated.take(f, failure) || !toolKinds.take(f) || !shown.take(f)) continue;
      const place = formatLocation(f);
      // A message of several lines (a registration's list of conflicts) goes on below, indented.
      const [first, ...more] = f.message.split('\n');
      const head = `${f.severity}[${f.code}]: ${first}${f.pointer ? ` (at ${f.pointer})` : ''}`;
      // A case named as its check (`setup`) is named once.
      const name = item.name === item.check ? item.check : `${item.check} ${item.name}`;
      const text = escapeControl(place ? `${place}: ${head}` : `${name}: ${head}`);
      lines.push(failure ? c.red(text) : c.yellow(text));
      for (const line of more) lines.push(`  ${escapeControl(line)}`);
      if (f.diff)
        lines.push(...f.diff.split('\n').map((l) => `    ${colorDiff(escapeControl(l), c)}`));
    }
  }
  for (const rest of repeated.rest) lines.push(c.yellow(escapeControl(rest)));
  for (const note of toolKinds.notes) lines.push(c.red(escapeControl(note)));
  if (shown.rest !== undefined) lines.push(c.yellow(shown.rest));
  // `-q`: the findings alone, as kubeconform prints without -summary.
  if (options.quiet === true) return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
  // What the walk set aside, and how to check it: neither a pass nor a failure. The files a
  // kustomization uses or a test asserts are counted below, not listed: a repository has hundreds.
  const listed = listedUnrendered(result.unrendered);
  for (const u of listed.slice(0, MAX_LISTED_UNRENDERED)) {
    lines.push(c.cyan(escapeControl(`${u.path}: note[${u.kind}]: ${u.message}`)));
  }
  if (listed.length > MAX_LISTED_UNRENDERED) {
    const more = groupDigits(listed.length - MAX_LISTED_UNRENDERED);
    const tests = listed.some((u) => u.kind === 'chainsaw-test' || u.kind === 'policy-test');
    const projects = listed.some((u) => u.kind === 'nested-project');
    const kinds = [
      'charts',
      'kustomizations',
      ...(tests ? ['tests'] : []),
      ...(projects ? ['projects with configs of their own'] : []),
    ];
    const what = `${kinds.slice(0, -1).join(', ')} and ${kinds.at(-1) ?? ''}`;
    lines.push(c.cyan(`and ${more} more ${what} set aside (-o json lists them)`));
  }
  const summary = checkSummaryText(result);
  for (const note of summary.notes) lines.push(c.cyan(note));
  if (lines.length > 0) lines.push('');
  lines.push(...summary.lines);
  if (summary.total !== '')
    lines.push(summary.failed ? c.red(summary.total) : c.green(summary.total));
  return `${lines.join('\n')}\n`;
}

/** The summary under a check's findings, uncoloured: what the text format and the report show. */
export interface CheckSummaryText {
  /** The `missing-crd` note, when documents are of kinds no definition defines. */
  readonly notes: readonly string[];
  /** `manifests: 13 resources in 6 files: 12 valid, 1 invalid`, then `CLASS: N passed, N failed` each. */
  readonly lines: readonly string[];
  /**
   * `N passed, N failed` over every class; `''` when there is one class, scenarios (`cosi
   * test`), whose line says it all: a second line of the same counts did not say they were steps.
   */
  readonly total: string;
  readonly failed: boolean;
}

/**
 * The summary `cosi check` prints under its findings, as lines: the report's verdict shows the
 * same ones, so that the page says what the log says.
 */
export function checkSummaryText(result: CheckResult): CheckSummaryText {
  const missing = missingDefinitionsNote(result);
  const summary = summarize(result);
  const setAside = formatUnrenderedCounts(result.unrendered);
  const lines = summary.map((s) =>
    s.check === 'manifests'
      ? `${s.check}: ${formatResourceSummary(summarizeResources(result))}${setAside && `; set aside: ${setAside}`}`
      : s.check === 'scenarios'
        ? scenariosLine(result, s)
        : `${s.check}: ${formatPassed(s)}`,
  );
  const counts = checkTotals(result);
  const onlyScenarios = summary.length === 1 && summary[0]?.check === 'scenarios';
  return {
    notes: missing === undefined ? [] : [escapeControl(missing)],
    lines,
    total: onlyScenarios ? '' : formatPassed(counts),
    failed: counts.failed > 0,
  };
}

/**
 * `scenarios: 1 passed, 0 failed (steps: 9 passed, 0 failed)`: a case is a step, so the scenarios
 * are counted too. A run that found no scenario file (its only case is about what was given,
 * which is no file) ran none: it has no scenario or step to count as failed, as `go test` says
 * "no test files".
 */
function scenariosLine(
  result: CheckResult,
  steps: { passed: number; failed: number; skipped?: number },
): string {
  const ranAny = result.cases.some((c) => c.check === 'scenarios' && c.file !== undefined);
  if (!ranAny) return 'scenarios: none run';
  return `scenarios: ${formatPassed(summarizeScenarios(result))} (steps: ${formatPassed(steps)})`;
}

/** The most charts, kustomizations and tests the text report lists, each with its note. */
const MAX_LISTED_UNRENDERED = 10;

/**
 * What a report for people lists of what was set aside: the charts, kustomizations and tests,
 * whose notes say how to check them; the patches and configurations they use, the files tests
 * assert, JSON files that are no manifests, other tools' files and Go test data are only counted.
 */
export function listedUnrendered(
  unrendered: readonly UnrenderedSource[] = [],
): readonly UnrenderedSource[] {
  return unrendered.filter((u) => !COUNTED_ONLY_KINDS.has(u.kind));
}

function colorDiff(line: string, c: ChalkInstance): string {
  if (line.startsWith('+') && !line.startsWith('+++')) return c.green(line);
  if (line.startsWith('-') && !line.startsWith('---')) return c.red(line);
  return line;
}

/**
 * `13 resources in 6 files: 12 valid, 1 invalid` (and `, N skipped` when some were, `, N files
 * failed whole` when a file had no resource to count: not UTF-8, not YAML, unreadable).
 */
export function formatResourceSummary(s: ResourceSummary): string {
  const plural = (n: number, word: string) => `${groupDigits(n)} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(s.resources, 'resource')} in ${plural(s.files, 'file')}: ${groupDigits(s.valid)} valid, ${groupDigits(s.invalid)} invalid${s.skipped > 0 ? `, ${groupDigits(s.skipped)} skipped` : ''}${s.failedFiles > 0 ? `, ${plural(s.failedFiles, 'file')} failed whole` : ''}`;
}

/** `4,998 passed, 2 failed`: a summary line's counts, digits grouped. */
/** `4 passed, 0 failed` (and `, 44 skipped` when some were). */
export function formatPassed({
  passed,
  failed,
  skipped = 0,
}: {
  passed: number;
  failed: number;
  skipped?: number;
}): string {
  const skips = skipped > 0 ? `, ${groupDigits(skipped)} skipped` : '';
  return `${groupDigits(passed)} passed, ${groupDigits(failed)} failed${skips}`;
}

export { groupDigits };
