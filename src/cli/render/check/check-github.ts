import { isFailure, summarize, totals, type CheckResult } from '../../check/check-result.js';

/** GitHub Actions workflow commands: an annotation per finding, then the summary line. */
export function renderCheckGithub(result: CheckResult): string {
  const out: string[] = [];
  for (const c of result.cases) {
    for (const f of c.findings) {
      const level = isFailure(f, result.strict) ? 'error' : 'warning';
      const props = [`title=${property(`${c.check}: ${f.code}`)}`];
      if (f.file)
        props.unshift(
          `file=${property(f.file)}`,
          ...(f.line > 0 ? [`line=${f.line}`, `col=${f.col}`] : []),
        );
      const message = [f.message, f.pointer ? `(at ${f.pointer})` : '', f.diff ? `\n${f.diff}` : '']
        .filter(Boolean)
        .join(' ');
      out.push(`::${level} ${props.join(',')}::${data(message)}`);
    }
  }
  const { passed, failed } = totals(summarize(result));
  out.push(`${passed} passed, ${failed} failed`);
  return `${out.join('\n')}\n`;
}

/** Escaping of a workflow command's message. */
function data(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escaping of a workflow command's property value. */
function property(text: string): string {
  return data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
