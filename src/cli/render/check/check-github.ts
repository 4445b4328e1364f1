import * as path from 'node:path';
import { checkTotals, isFailure, type CheckResult } from '../../../app/check/check-result.js';
import { formatPassed, listedUnrendered } from './check-text.js';
import { ShownFindings } from './shown-findings.js';
import { escapeControl, escapeControlLines } from '../escape-control.js';

/** Where the files of findings are, for annotation paths. */
export interface GithubOptions {
  /** The directory the finding paths are relative to. */
  readonly cwd: string;
  /** `GITHUB_WORKSPACE`: annotation paths are made relative to it, as GitHub reads them. */
  readonly workspace?: string | undefined;
  /**
   * Where a finding about no file is annotated (no manifest found, too many findings, a usage
   * error): the project's config file, else the first path given, else the directory checked.
   * Every annotation then has a file and a line.
   */
  readonly anchor?: string | undefined;
}

/** GitHub Actions workflow commands: an annotation per finding, then the summary line. */
export function renderCheckGithub(result: CheckResult, options?: GithubOptions): string {
  const out: string[] = [];
  const shown = new ShownFindings(result);
  for (const c of result.cases) {
    for (const f of c.findings) {
      if (!shown.take(f)) continue;
      const level = isFailure(f, result) ? 'error' : 'warning';
      const props = [`title=${property(escapeControl(`${c.check}: ${f.code}`))}`];
      // A finding about a whole file (a config that does not load, say) is annotated on its
      // first line: GitHub shows an annotation without a line on no line of the diff. One about
      // no file, at the anchor's first line.
      const file = f.file || options?.anchor;
      if (file)
        props.unshift(
          `file=${fileProperty(file, options)}`,
          ...(f.file && f.line > 0
            ? [`line=${f.line}`, `col=${f.col > 0 ? f.col : 1}`]
            : ['line=1']),
        );
      // The job log shows a command's message alone, not its file and line, and GitHub makes
      // only 10 errors of a step annotations (argo-cd has 977): the message says where and what,
      // as `check`'s text does, so that every finding in the log names its place.
      const message = [
        `${logPlace(f.file, f.line, f.col, options)}${f.code}: ${f.message}`,
        f.pointer ? `(at ${f.pointer})` : '',
        f.diff ? `\n${f.diff}` : '',
      ]
        .filter(Boolean)
        .join(' ');
      // A manifest's keys are in the pointer raw: a CI log is a terminal too.
      out.push(`::${level} ${props.join(',')}::${data(escapeControlLines(message))}`);
    }
  }
  if (shown.rest !== undefined) {
    const props = [`title=${property('check: too-many-findings')}`];
    if (options?.anchor) {
      props.unshift(`file=${fileProperty(options.anchor, options)}`, 'line=1');
    }
    out.push(`::warning ${props.join(',')}::${data(shown.rest)}`);
  }
  // What was set aside as not manifests (charts, kustomizations): a notice each, on its file.
  for (const u of listedUnrendered(result.unrendered)) {
    const props = [
      `file=${fileProperty(u.file, options)}`,
      'line=1',
      `title=${property(`set aside: ${u.kind}`)}`,
    ];
    out.push(`::notice ${props.join(',')}::${data(escapeControlLines(u.message))}`);
  }
  out.push(formatPassed(checkTotals(result)));
  return `${out.join('\n')}\n`;
}

/** `file:line:col: ` of a finding as the annotation names it; none for a finding of no file. */
function logPlace(
  file: string,
  line: number,
  col: number,
  options: GithubOptions | undefined,
): string {
  if (file === '') return '';
  const at = workspacePath(file, options);
  return line > 0 ? `${at}:${line}:${col > 0 ? col : 1}: ` : `${at}: `;
}

/** A finding's file, relative to the workspace when there is one and the file is inside it. */
function workspacePath(file: string, options: GithubOptions | undefined): string {
  if (options?.workspace === undefined || options.workspace === '') return file;
  const relative = path.relative(options.workspace, path.resolve(options.cwd, file));
  if (relative === '') return '.';
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

/**
 * A `file=` property: control characters of a file name escaped as in every other format (a
 * raw ESC reaches the Actions log, which renders ANSI); a line feed is `%0A`, as GitHub reads it.
 */
function fileProperty(file: string, options: GithubOptions | undefined): string {
  return property(escapeControlLines(workspacePath(file, options)));
}

/** Escaping of a workflow command's message. */
function data(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escaping of a workflow command's property value. */
function property(text: string): string {
  return data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
