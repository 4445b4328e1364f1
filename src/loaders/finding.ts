/**
 * Findings: what the loaders report about their input, as data. A finding names a code from a
 * fixed list, where it is (file, line, column, JSON pointer inside the document) and a sentence
 * for humans. Tests and tools match on the code; the sentence may change.
 */

import { compareStrings } from '../engine/compare-strings.js';
import { FINDING_SEVERITY, type FindingCode, type Severity } from './finding-code.js';
import type { SourceLocation } from './position.js';
import {
  MAX_FINDING_MESSAGE_LENGTH,
  shortenLines,
  shortenMessage,
  shortenPointer,
  shortenValues,
} from './shorten.js';

export {
  FINDING_CODES,
  FINDING_SEVERITY,
  type FindingCode,
  type Severity,
} from './finding-code.js';
export type { SourceLocation } from './position.js';

/**
 * One thing wrong (or suspicious) in the input. `C` is the closed list of codes of whoever
 * reports it: the loaders' {@link FindingCode}s by default; `cosi check` adds its own.
 */
export interface Finding<C extends string = FindingCode> extends SourceLocation {
  readonly code: C;
  readonly severity: Severity;
  /**
   * A sentence whose long quoted values are cut ({@link shortenValues}); its own words stay
   * whole (a message of many words no one shortened is bounded at last by {@link shortenLines}).
   */
  readonly message: string;
  /**
   * The sub-rule that failed, when the code has several: the naming rule of an
   * `invalid-definition`, the JSON Schema keyword of a `schema-violation`.
   */
  readonly rule?: string;
  /** The other place involved, for duplicates: where the first one is. */
  readonly related?: SourceLocation;
  /** A readable diff, for a value that differs from what was expected. */
  readonly diff?: string;
}

/** Fields of a new finding; the severity follows from the code. */
export interface FindingInit extends SourceLocation {
  readonly code: FindingCode;
  readonly message: string;
  readonly rule?: string;
  readonly related?: SourceLocation;
}

/**
 * Makes a finding, with the severity of its code. Its message and pointers are bounded
 * ({@link boundFinding}): whatever of the input they quote, a finding stays one short line.
 */
export function createFinding(init: FindingInit): Finding {
  return boundFinding({
    code: init.code,
    severity: FINDING_SEVERITY[init.code],
    message: init.message,
    file: init.file,
    line: init.line,
    col: init.col,
    pointer: init.pointer,
    ...(init.rule === undefined ? {} : { rule: init.rule }),
    ...(init.related === undefined ? {} : { related: init.related }),
  });
}

/** The longest line of a finding's diff. */
const MAX_DIFF_LINE_LENGTH = 160;

/**
 * The finding with the values its message quotes, its pointers, sub-rule and diff lines cut to a
 * bounded length, so that a 1 MB value or a 10,000-character key quoted anywhere in it still
 * makes a short finding in every output format, and the message still says all it says. The same
 * finding when nothing is long.
 */
export function boundFinding<C extends string>(finding: Finding<C>): Finding<C> {
  const message = shortenLines(shortenValues(finding.message), MAX_FINDING_MESSAGE_LENGTH);
  const pointer = shortenPointer(finding.pointer);
  const rule = finding.rule === undefined ? undefined : shortenMessage(finding.rule, 60);
  const related =
    finding.related === undefined
      ? undefined
      : { ...finding.related, pointer: shortenPointer(finding.related.pointer) };
  const diff =
    finding.diff === undefined
      ? undefined
      : finding.diff
          .split('\n')
          .map((line) => shortenMessage(line, MAX_DIFF_LINE_LENGTH))
          .join('\n');
  if (
    message === finding.message &&
    pointer === finding.pointer &&
    rule === finding.rule &&
    related?.pointer === finding.related?.pointer &&
    diff === finding.diff
  ) {
    return finding;
  }
  return {
    ...finding,
    message,
    pointer,
    ...(rule === undefined ? {} : { rule }),
    ...(related === undefined ? {} : { related }),
    ...(diff === undefined ? {} : { diff }),
  };
}

/** `file:line:col`, dropping the parts that are not known. */
export function formatLocation(location: Omit<SourceLocation, 'pointer'>): string {
  if (location.line === 0) return location.file;
  return `${location.file}:${location.line}:${location.col}`;
}

/**
 * One line in the eslint / kubeconform style.
 *
 * @example
 * formatFinding(f) // 'vms.yaml:7:9: error[schema-violation]: must be integer (at /spec/cpus)'
 */
export function formatFinding(unbounded: Finding<string>): string {
  const finding = boundFinding(unbounded);
  const where = formatLocation(finding);
  const head = `${finding.severity}[${finding.code}]: ${finding.message}`;
  const at = finding.pointer === '' ? '' : ` (at ${finding.pointer})`;
  return where === '' ? `${head}${at}` : `${where}: ${head}${at}`;
}

/**
 * Orders findings by file, line and column. Findings at one place keep the order they were made
 * in (sorting is stable), which puts a cause (an unknown anchor) before its effects (the null
 * it leaves failing a schema).
 */
export function compareFindings(a: Finding<string>, b: Finding<string>): number {
  return compareStrings(a.file, b.file) || a.line - b.line || a.col - b.col;
}

/** True when any finding is an error. */
export function hasErrors(findings: readonly Finding<string>[]): boolean {
  return findings.some((f) => f.severity === 'error');
}
