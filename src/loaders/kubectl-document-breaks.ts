/**
 * Where kubectl splits a YAML stream otherwise than YAML does. kubectl does not hand a file to a
 * YAML parser whole: its reader (`YAMLReader` of `k8s.io/apimachinery/pkg/util/yaml`) cuts it at
 * every line that starts with `---`, refuses such a line when anything but spaces or a comment
 * follows (`invalid Yaml document separator`), and parses each piece alone, of which go-yaml
 * reads the first document only. So a file YAML reads one way is applied another:
 *
 * - `--- {apiVersion: v1, ...}`, `--- !!map`, `---apiVersion: v1`: refused;
 * - a quoted or flow value whose next line starts with `---` (`-----END CERTIFICATE-----"}` at
 *   column 1): refused;
 * - a document after a `...` line, before the next `---`: never applied, without a word.
 *
 * Pure: the lines and what kubectl does with them; `parse-manifest.ts` reports them on the
 * Kubernetes objects they concern.
 */

/** A line of the stream kubectl reads otherwise than YAML. */
export interface DocumentBreak {
  /** 1-based. */
  readonly line: number;
  readonly message: string;
}

/**
 * A line that may be one: `---` with more than a comment after it, or a `...` end marker. Most
 * files have none, and are passed with this one scan instead of a walk of their lines.
 */
const SUSPECT_LINE = /^---[ \t]*[^\s#]|^\.\.\.[ \t]*(?:#.*)?\r?$/m;

/**
 * The lines of `text` kubectl cuts or stops at where YAML does not (see above), counted from
 * `firstLine` (the text's in its file, when it is an excerpt).
 */
export function kubectlDocumentBreaks(text: string, firstLine = 1): DocumentBreak[] {
  if (!SUSPECT_LINE.test(text)) return [];
  const breaks: DocumentBreak[] = [];
  const lines = text.split('\n');
  /** The line of a `...` whose document end kubectl does not see, until the next `---`. */
  let endedAt: number | undefined;
  lines.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const number = firstLine + i;
    if (line.startsWith('---')) {
      endedAt = undefined;
      const rest = line.slice(3).trim();
      if (rest !== '' && !rest.startsWith('#')) {
        breaks.push({
          line: number,
          message: `kubectl refuses line ${number} (invalid Yaml document separator: ${rest}): its reader cuts the file at every line that starts with ---, with nothing but a comment after it; ${separatorHint(line)}`,
        });
      }
      return;
    }
    if (/^\.\.\.[ \t]*(?:#.*)?$/.test(line)) {
      endedAt = number;
      return;
    }
    const content = line.trim();
    if (endedAt !== undefined && content !== '' && !content.startsWith('#')) {
      breaks.push({
        line: number,
        message: `kubectl never applies this document: it reads one document up to the next line that starts with ---, and this one comes after the end marker ... of line ${endedAt}; write --- there instead`,
      });
      endedAt = undefined;
    }
  });
  return breaks;
}

/** What to write instead of a `---` line kubectl refuses. */
function separatorHint(line: string): string {
  if (/^---[ \t]/.test(line)) return 'put --- on a line of its own, and the document after it';
  if (line.startsWith('----')) return "indent that line past its key's column";
  return 'indent that line if it goes on with the value above, else put --- on a line of its own';
}
