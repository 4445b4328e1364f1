/**
 * Where the documents of a rendered stream came from. `helm template` writes, at the head of
 * each document, the template it rendered it from (`# Source: my-chart/templates/service.yaml`);
 * a check of the stream (`helm template my-chart | cosi check -f -`) says it beside each finding,
 * since `<stdin>:42:7` names a line of a stream no one keeps.
 */
import type { Finding } from './finding.js';
import { shortenMessage } from './shorten.js';

/** Helm's comment: a line of its own, `# Source: ` and the template's path. */
const SOURCE_PREFIX = '# Source: ';
/** The longest origin said (a path in the stream is the stream's to choose). */
const MAX_ORIGIN_LENGTH = 200;
/** A line that starts a new document of the stream. */
const DOCUMENT_START = /^---(?:\s|$)/;

/**
 * The path of a `# Source:` comment line, without the spaces after it: one that starts with no
 * space and holds no line break. Read by position: a lazy path before trailing spaces
 * (`(\S.*?)\s*$`) takes quadratic time on a long line of spaces followed by a word.
 */
function sourceOf(row: string): string | undefined {
  if (!row.startsWith(SOURCE_PREFIX)) return undefined;
  const source = row.slice(SOURCE_PREFIX.length).trimEnd();
  return source === '' || /^\s|[\r\u2028\u2029]/.test(source) ? undefined : source;
}

/** The origins of one text: line of each `# Source:` comment, and the document it heads. */
interface Origins {
  /** Ascending: the line of a `# Source:` comment, or of a document start (origin undefined). */
  readonly lines: readonly number[];
  readonly origins: readonly (string | undefined)[];
}

/** The origins of `text`, or `undefined` when it has no `# Source:` comment (most texts). */
function originsOf(text: string): Origins | undefined {
  if (!text.includes('# Source: ')) return undefined;
  const lines: number[] = [];
  const origins: (string | undefined)[] = [];
  let line = 0;
  for (const row of text.split('\n')) {
    line++;
    const source = sourceOf(row);
    if (source !== undefined) {
      lines.push(line);
      origins.push(shortenMessage(source, MAX_ORIGIN_LENGTH));
    } else if (DOCUMENT_START.test(row)) {
      lines.push(line);
      origins.push(undefined);
    }
  }
  return { lines, origins };
}

/** The origin of what is at `line`: the last `# Source:` above it, in the same document. */
function originAt(origins: Origins, line: number): string | undefined {
  let low = 0;
  let high = origins.lines.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((origins.lines[mid] as number) <= line) low = mid + 1;
    else high = mid;
  }
  return low === 0 ? undefined : origins.origins[low - 1];
}

/**
 * The findings with the template each one's document was rendered from said in its message
 * (`must be integer (from my-chart/templates/service.yaml)`), for the texts that say it; the
 * others as they are. `texts` are the manifests read, by the path findings name them with.
 */
export function withRenderedOrigins(
  findings: readonly Finding[],
  texts: readonly { readonly path: string; readonly text: string }[],
): Finding[] {
  // Only the texts with findings are read for comments: a clean tree (a watch round) costs nothing.
  const placed = new Set(findings.filter((f) => f.line > 0).map((f) => f.file));
  if (placed.size === 0) return [...findings];
  const byFile = new Map<string, Origins>();
  for (const { path, text } of texts) {
    if (!placed.has(path)) continue;
    const origins = originsOf(text);
    if (origins) byFile.set(path, origins);
  }
  if (byFile.size === 0) return [...findings];
  return findings.map((finding) => {
    const origins = byFile.get(finding.file);
    const origin = origins && finding.line > 0 ? originAt(origins, finding.line) : undefined;
    return origin === undefined
      ? finding
      : { ...finding, message: `${finding.message} (from ${origin})` };
  });
}
