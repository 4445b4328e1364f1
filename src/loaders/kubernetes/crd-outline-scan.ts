/**
 * A quick scan of a file of CustomResourceDefinitions for what names their kinds (group, names,
 * scope, versions served), without parsing the rest: a bundle given with `--definitions` is
 * mostly `openAPIV3Schema`, which only a used kind needs. The scan reads the block-style YAML
 * that CRD generators write (controller-gen, kubebuilder, Helm charts' `crds/`) line by line and
 * skips every subtree it does not need by its indentation, which YAML's block structure makes
 * sound: a nested value's lines (block scalars, multi-line plain or quoted scalars, flow
 * collections) are all indented deeper than its key, comments and blank lines aside.
 *
 * It answers only when it is sure: anything it does not read exactly as the YAML parser would
 * (a flow mapping, an anchor, an alias, a tag, a directive, an escape, a duplicate key, a value
 * that YAML 1.2 core would type as a number, a boolean or null where a string is wanted, a
 * document that is not a CRD) makes the whole file `undefined`, and the file is then parsed as
 * any other.
 */

/** What names a CRD's kinds, as the scan read it. */
export interface CrdOutline {
  /** The document's index among the file's documents that have content. */
  readonly index: number;
  readonly name: string | undefined;
  readonly group: string;
  readonly scope: string;
  readonly names: {
    readonly plural: string;
    readonly singular?: string;
    readonly kind: string;
    readonly shortNames?: readonly string[];
  };
  readonly versions: readonly {
    readonly name: string;
    readonly served: boolean;
    readonly storage: boolean;
    /** Whether the version has the status subresource (`subresources.status` is a mapping). */
    readonly statusSubresource: boolean;
    /** Whether the version has the scale subresource (`subresources.scale` is a mapping). */
    readonly scaleSubresource?: true;
    /** Whether the version is `deprecated: true` (its warning is read with the CRD). */
    readonly deprecated?: true;
  }[];
}

/**
 * What to read of a node: a string, a boolean, whether it is a mapping (of any content: `true`,
 * or `false` for null), a list of one shape, or a mapping's wanted keys.
 */
type Shape = 'string' | 'bool' | 'mapping' | readonly [Shape] | { readonly [key: string]: Shape };

const CRD_SHAPE: Shape = {
  apiVersion: 'string',
  kind: 'string',
  metadata: { name: 'string' },
  spec: {
    group: 'string',
    scope: 'string',
    names: { plural: 'string', singular: 'string', kind: 'string', shortNames: ['string'] },
    versions: [
      {
        name: 'string',
        served: 'bool',
        storage: 'bool',
        deprecated: 'bool',
        subresources: { status: 'mapping', scale: 'mapping' },
      },
    ],
  },
};

/** Thrown inside the scan where it is not sure; never escapes {@link scanCrdOutlines}. */
class Unsure extends Error {}

interface Line {
  readonly indent: number;
  /** The line without its indentation (and without a trailing `\r`). */
  readonly text: string;
}

/**
 * The CRDs of a YAML file, each with what names its kinds; `undefined` unless every document
 * with content is a CRD the scan read for certain.
 */
export function scanCrdOutlines(text: string): CrdOutline[] | undefined {
  try {
    const outlines: CrdOutline[] = [];
    for (const lines of documentsOf(text)) {
      if (lines.length === 0) continue;
      if (lines.indent(0) !== 0) return undefined;
      const [value, next] = readMapping(lines, 0, 0, CRD_SHAPE as Record<string, Shape>);
      if (next !== lines.length) return undefined;
      const outline = crdOutline(value, outlines.length);
      if (outline === undefined) return undefined;
      outlines.push(outline);
    }
    return outlines;
  } catch (error) {
    if (error instanceof Unsure) return undefined;
    throw error;
  }
}

/**
 * The content lines of one document, where each starts and how deep it is indented; a line's
 * text is cut out only when the scan reads it. A CRD file is mostly schema that the scan skips
 * by indentation alone, so most lines are never cut out (a file of 2 MB was some 60,000 strings
 * and objects, the scan's main cost).
 */
class Lines {
  readonly #text: string;
  /** Where each line's content starts (after its indentation), and where the line ends. */
  readonly #starts: number[] = [];
  readonly #ends: number[] = [];
  readonly #indents: number[] = [];

  constructor(text: string) {
    this.#text = text;
  }

  get length(): number {
    return this.#starts.length;
  }

  add(start: number, end: number, indent: number): void {
    this.#starts.push(start);
    this.#ends.push(end);
    this.#indents.push(indent);
  }

  /** Line `i`, `undefined` past the last. */
  at(i: number): Line | undefined {
    if (i >= this.#starts.length) return undefined;
    return {
      indent: this.#indents[i] as number,
      text: this.#text.slice(this.#starts[i], this.#ends[i]),
    };
  }

  /** The indentation of line `i`; -1 past the last. */
  indent(i: number): number {
    return i < this.#indents.length ? (this.#indents[i] as number) : -1;
  }

  /** Whether line `i` is a sequence item (`-` alone or followed by a space). */
  isItem(i: number): boolean {
    const start = this.#starts[i] as number;
    if (this.#text.charCodeAt(start) !== 45) return false;
    return start + 1 === this.#ends[i] || this.#text.charCodeAt(start + 1) === 32;
  }
}

const SPACE = 32;
const TAB = 9;
const HASH = 35;

/**
 * Whether the line from `start` (after its spaces) to `end` has content: not blank, not a
 * comment. Whitespace other than a space or a tab is left to `trim`, as the line's text was.
 */
function hasContent(text: string, start: number, end: number): boolean {
  let at = start;
  while (at < end && (text.charCodeAt(at) === SPACE || text.charCodeAt(at) === TAB)) at++;
  if (at === end) return false;
  const code = text.charCodeAt(at);
  if (code === HASH) return false;
  if (code < 128 && code > SPACE) return true;
  const trimmed = text.slice(at, end).trim();
  return trimmed !== '' && !trimmed.startsWith('#');
}

/** Whether the line from `start` to `end` is the marker `marker` (`---`, `...`), alone or followed by a blank. */
function isMarker(text: string, start: number, end: number, marker: string): boolean {
  if (!text.startsWith(marker, start)) return false;
  const after = text.charCodeAt(start + 3);
  return start + 3 === end || after === SPACE || after === TAB;
}

/** The content lines of each document of a stream (comments and blank lines left out). */
function documentsOf(text: string): Lines[] {
  const documents: Lines[] = [new Lines(text)];
  let start = 0;
  while (start <= text.length) {
    let next = text.indexOf('\n', start);
    if (next === -1) next = text.length;
    const end = next > start && text.charCodeAt(next - 1) === 13 ? next - 1 : next;
    const lineStart = start;
    start = next + 1;
    if (isMarker(text, lineStart, end, '---')) {
      // Content after the marker (`--- !tag`, `--- {`) is beyond the scan.
      const rest = text.slice(lineStart + 3, end).trim();
      if (rest !== '' && !rest.startsWith('#')) throw new Unsure();
      documents.push(new Lines(text));
      continue;
    }
    if (isMarker(text, lineStart, end, '...')) {
      documents.push(new Lines(text));
      continue;
    }
    if (text.charCodeAt(lineStart) === 37) throw new Unsure(); // `%`: a directive
    let indent = 0;
    while (text.charCodeAt(lineStart + indent) === SPACE && lineStart + indent < end) indent++;
    if (!hasContent(text, lineStart + indent, end)) continue;
    (documents[documents.length - 1] as Lines).add(lineStart + indent, end, indent);
  }
  return documents;
}

function isItem(line: Line): boolean {
  return line.text === '-' || line.text.startsWith('- ');
}

/** The index of the first line after `i` that is not nested below a key at `indent`. */
function skipNested(lines: Lines, i: number, indent: number, items: boolean): number {
  let j = i;
  while (j < lines.length) {
    const at = lines.indent(j);
    if (at > indent || (items && at === indent && lines.isItem(j))) j++;
    else break;
  }
  return j;
}

const EMPTY_FLOW_MAPPING = /^\{[ \t]*\}$/;

const KEY = /^([A-Za-z0-9_][A-Za-z0-9_./-]*):(?:[ \t]+|$)/;

/**
 * Reads the block mapping whose keys are at `indent` from line `i`: the wanted keys' values
 * (others skipped); returns it and the index of the line after it.
 */
function readMapping(
  lines: Lines,
  i: number,
  indent: number,
  wanted: Readonly<Record<string, Shape>>,
  firstText?: string,
): [Record<string, unknown>, number] {
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  const start = i;
  while (i < lines.length) {
    const line: Line =
      i === start && firstText !== undefined ? { indent, text: firstText } : (lines.at(i) as Line);
    if (line.indent !== indent || isItem(line)) break;
    const match = KEY.exec(line.text);
    if (match === null) throw new Unsure();
    const key = match[1] as string;
    if (seen.has(key)) throw new Unsure();
    seen.add(key);
    const rest = stripComment(line.text.slice(match[0].length));
    const shape = Object.hasOwn(wanted, key) ? wanted[key] : undefined;
    i++;
    if (rest === '') {
      const next = lines.at(i);
      const nested = next !== undefined && next.indent > indent;
      const compact = next !== undefined && next.indent === indent && isItem(next);
      if (shape === undefined) {
        i = skipNested(lines, i, indent, compact);
        continue;
      }
      if (shape === 'mapping') {
        // A block mapping whose content the scan skips, or null (nothing nested).
        if (compact || (nested && !KEY.test(next.text))) throw new Unsure();
        out[key] = nested;
        i = skipNested(lines, i, indent, false);
        continue;
      }
      if (!nested && !compact) throw new Unsure(); // null where a value is wanted
      const at = next.indent;
      if (Array.isArray(shape)) {
        if (!isItem(next)) throw new Unsure();
        [out[key], i] = readSequence(lines, i, at, shape[0] as Shape);
      } else if (typeof shape === 'object') {
        if (compact || isItem(next)) throw new Unsure();
        [out[key], i] = readMapping(lines, i, at, shape as Record<string, Shape>);
      } else throw new Unsure();
      if (lines.indent(i) > indent) throw new Unsure();
      continue;
    }
    if (shape === undefined) {
      i = skipNested(lines, i, indent, false);
      continue;
    }
    if (Array.isArray(shape) && rest.startsWith('['))
      out[key] = flowSequence(rest, shape[0] as Shape);
    else if (typeof shape !== 'string' && !Array.isArray(shape) && EMPTY_FLOW_MAPPING.test(rest)) {
      out[key] = {};
    } else if (shape === 'mapping' && EMPTY_FLOW_MAPPING.test(rest)) out[key] = true;
    else if (shape === 'string' || shape === 'bool') out[key] = scalar(rest, shape);
    else throw new Unsure();
    // A wanted scalar continued on the next lines (a multi-line plain scalar) is beyond the scan.
    if (lines.indent(i) > indent) throw new Unsure();
  }
  return [out, i];
}

/** Reads the block sequence whose `-` are at `indent` from line `i`. */
function readSequence(lines: Lines, i: number, indent: number, item: Shape): [unknown[], number] {
  const out: unknown[] = [];
  while (i < lines.length) {
    if (lines.indent(i) !== indent || !lines.isItem(i)) break;
    const line = lines.at(i) as Line;
    let offset = 1;
    while (line.text.charCodeAt(offset) === 32) offset++;
    const content = line.text.slice(offset);
    if (content === '' || content.startsWith('#') || content.startsWith('\t')) throw new Unsure();
    if (item === 'mapping') throw new Unsure();
    if (item === 'string' || item === 'bool') {
      out.push(scalar(stripComment(content), item));
      i++;
      if (lines.indent(i) > indent) throw new Unsure();
      continue;
    }
    if (Array.isArray(item) || !KEY.test(content)) throw new Unsure();
    // `- key: value`: a mapping whose keys are at the column of `key`.
    const [value, next] = readMapping(
      lines,
      i,
      indent + offset,
      item as Record<string, Shape>,
      content,
    );
    out.push(value);
    i = next;
    if (lines.indent(i) > indent) throw new Unsure();
  }
  return [out, i];
}

/** A value's text without a trailing comment. */
function stripComment(text: string): string {
  const quoted = /^(?:'(?:[^']|'')*'|"[^"\\]*")/.exec(text);
  if (quoted !== null) {
    const after = text.slice(quoted[0].length).trim();
    if (after !== '' && !after.startsWith('#')) throw new Unsure();
    return quoted[0];
  }
  if (text.startsWith("'") || text.startsWith('"')) throw new Unsure();
  const hash = text.search(/(^|[ \t])#/);
  return (hash === -1 ? text : text.slice(0, hash)).trim();
}

/** YAML 1.2 core schema plain scalars that are not strings. */
const NOT_A_STRING =
  /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

function scalar(text: string, shape: 'string' | 'bool'): string | boolean {
  if (shape === 'bool') {
    if (/^(?:true|True|TRUE)$/.test(text)) return true;
    if (/^(?:false|False|FALSE)$/.test(text)) return false;
    throw new Unsure();
  }
  const single = /^'((?:[^']|'')*)'$/.exec(text);
  if (single !== null) return (single[1] as string).replaceAll("''", "'");
  const double = /^"([^"\\]*)"$/.exec(text);
  if (double !== null) return double[1] as string;
  if (text === '' || /^[-?:,[\]{}#&*!|>'"%@`]/.test(text) || /: |:$|\t/.test(text)) {
    throw new Unsure();
  }
  if (NOT_A_STRING.test(text)) throw new Unsure();
  return text;
}

/** `[a, b]` on one line, of plain or simply quoted scalars. */
function flowSequence(text: string, item: Shape): unknown[] {
  if ((item !== 'string' && item !== 'bool') || !text.endsWith(']')) throw new Unsure();
  const inner = text.slice(1, -1).trim();
  if (inner === '') return [];
  if (/[[\]{}]/.test(inner)) throw new Unsure();
  return inner.split(',').map((part) => scalar(part.trim(), item));
}

/** A version as the scan read it. */
interface ScannedVersion {
  readonly name: string;
  readonly served: boolean;
  readonly storage: boolean;
  readonly deprecated?: boolean;
  readonly subresources?: { readonly status?: boolean; readonly scale?: boolean };
}

/** The outline of a scanned document, if it is a CRD with every field the outline needs. */
function crdOutline(value: Record<string, unknown>, index: number): CrdOutline | undefined {
  if (value.apiVersion !== 'apiextensions.k8s.io/v1' || value.kind !== 'CustomResourceDefinition') {
    return undefined;
  }
  const metadata = value.metadata as { name?: string } | undefined;
  const spec = value.spec as Record<string, unknown> | undefined;
  const names = spec?.names as CrdOutline['names'] | undefined;
  const versions = spec?.versions as Partial<CrdOutline['versions'][number]>[] | undefined;
  if (
    spec === undefined ||
    typeof spec.group !== 'string' ||
    typeof spec.scope !== 'string' ||
    names === undefined ||
    typeof names.plural !== 'string' ||
    typeof names.kind !== 'string' ||
    versions === undefined ||
    versions.length === 0 ||
    !versions.every(
      (v) =>
        typeof v.name === 'string' &&
        typeof v.served === 'boolean' &&
        typeof v.storage === 'boolean',
    )
  ) {
    return undefined;
  }
  return {
    index,
    name: metadata?.name,
    group: spec.group,
    scope: spec.scope,
    names,
    versions: (versions as ScannedVersion[]).map(
      ({ name, served, storage, deprecated, subresources }) => ({
        name,
        served,
        storage,
        statusSubresource: subresources?.status === true,
        ...(subresources?.scale === true ? { scaleSubresource: true as const } : {}),
        ...(deprecated === true ? { deprecated: true as const } : {}),
      }),
    ),
  };
}
