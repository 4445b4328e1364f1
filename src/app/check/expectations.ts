import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { isNode, LineCounter, parseAllDocuments, stringify } from 'yaml';
import { deepEqual, isRecord } from '../../engine/resource/plain-data.js';
import type { ResourceGroup } from '../resource-query.js';
import type { ResourceDefinition } from '../../engine/resource/definition.js';
import type { Resource } from '../../engine/resource/resource.js';
import { toDocument } from '../output-document.js';
import { outputYaml } from '../output-yaml.js';
import { maskChangedValues, maskedDocumentFields } from '../masked-values.js';
import type { Finding } from '../../loaders/finding.js';
import { assertReplaceable, removeStaleTemporaries, writeFileAtomically } from '../atomic-write.js';
import { FileWriteError } from '../file-write-error.js';
import type { CheckCase, CheckCode, GoldenUpdate } from './check-result.js';
import {
  GOLDEN_INDEX,
  goldenFilesToCompare,
  removeGoldenFiles,
  staleGoldenFiles,
  writeGoldenIndex,
} from './golden-files.js';
import {
  changedFingerprints,
  comparableSealed,
  fingerprinter,
  GOLDEN_KEY_ENV,
  type Fingerprinter,
  sealDocument,
  type UnsealedFields,
} from './sealed-values.js';

interface ExpectedDocument {
  readonly key: string;
  readonly value: Record<string, unknown>;
  readonly file: string;
  readonly line: number;
  readonly col: number;
  /** Where the node at a path of the document starts, or `undefined` when it has none there. */
  readonly placeOf?: (
    path: readonly (string | number)[],
  ) => { line: number; col: number } | undefined;
}

const YAML_FILE = /\.ya?ml$/;

/** How golden documents are written and compared. */
export interface GoldenOptions {
  /**
   * Keep `version`, `created` and `updated` in the goldens and compare them. Off by default: they
   * change with every unrelated write, and a golden tree should change only when the state does.
   */
  readonly volatile: boolean;
  /**
   * The key of the fingerprints that stand for a sensitive type's values (`COSI_GOLDEN_KEY`):
   * without one they are recorded as `***`, and a check cannot compare them (and says so).
   */
  readonly key?: string;
}

/**
 * The metadata fields that change with every write, left out of goldens unless asked: cosi's, and
 * their names in a Kubernetes-shaped document.
 */
const VOLATILE_FIELDS = [
  'version',
  'created',
  'updated',
  'resourceVersion',
  'creationTimestamp',
] as const;

/**
 * A resource as its golden document holds it: `apply -o yaml --stable`, less the volatile fields;
 * a sensitive type's values sealed (see `sealed-values.ts`), never in clear.
 */
function goldenDocument(
  resource: Resource,
  group: Pick<ResourceGroup, 'definition' | 'ownerKinds'>,
  options: GoldenOptions,
  fingerprint: Fingerprinter | undefined,
): Record<string, unknown> {
  const { definition, ownerKinds } = group;
  const sensitive = definition?.sensitivity === 'sensitive';
  const printed = toDocument(resource, definition, {
    stable: true,
    includeSensitive: sensitive,
    ...(ownerKinds === undefined ? {} : { ownerKinds }),
  });
  const { namespace, type, id } = resource.metadata;
  const doc = sensitive
    ? sealDocument(printed, definition, `${namespace}/${type}/${id}`, fingerprint)
    : printed;
  return options.volatile ? doc : withoutVolatile(doc);
}

function withoutVolatile(doc: Record<string, unknown>): Record<string, unknown> {
  const metadata = doc.metadata;
  if (typeof metadata !== 'object' || metadata === null) return doc;
  const kept = Object.entries(metadata as Record<string, unknown>).filter(
    ([key]) => !(VOLATILE_FIELDS as readonly string[]).includes(key),
  );
  return { ...doc, metadata: Object.fromEntries(kept) };
}

/** The converged state as goldens hold it, keyed by namespace/type/id. */
async function actualDocuments(
  groups: readonly ResourceGroup[],
  options: GoldenOptions,
): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  const fingerprint = await fingerprinterFor(groups, options);
  for (const group of groups) {
    for (const resource of group.resources) {
      const doc = JSON.parse(
        JSON.stringify(goldenDocument(resource, group, options, fingerprint)),
      ) as Record<string, unknown>;
      const { namespace, type, id } = resource.metadata;
      out.set(`${namespace}/${type}/${id}`, doc);
    }
  }
  return out;
}

/**
 * Compares the converged state with a golden tree: the golden files `cosi check --update` listed
 * in its index, or without one every YAML file below `dir` (as `cosi apply -o yaml --stable`
 * writes them). One case per resource: missing, unexpected, or different (with a unified diff).
 */
export async function compareExpectations(
  dir: string,
  displayDir: string,
  groups: readonly ResourceGroup[],
  options: GoldenOptions,
): Promise<CheckCase[]> {
  const expected = await readExpected(dir, displayDir, kindsOf(groups));
  // Without a readable golden tree, one finding says so; a case per resource would bury it.
  if (expected.unreadable) return expected.problems;
  const actual = await actualDocuments(groups, options);
  const definitions = definitionsByKey(groups);
  // The diff library is loaded only by a check that compares with a golden tree.
  const { createTwoFilesPatch } = await import('diff');
  const unifiedDiff = (file: string, want: unknown, got: unknown): string =>
    withoutPatchHeader(
      createTwoFilesPatch(
        `${file} (expected)`,
        'converged state',
        stringify(want, { lineWidth: 0 }),
        stringify(got, { lineWidth: 0 }),
        undefined,
        undefined,
        { context: 3 },
      ),
    );
  const cases: CheckCase[] = [];
  const goldenOf = goldenFiles(expected.documents.values(), displayDir);
  const keys = [...new Set([...expected.documents.keys(), ...actual.keys()])].sort();
  for (const key of keys) {
    const stored = expected.documents.get(key);
    // Goldens recorded with the volatile fields still compare when they are not asked for.
    const want =
      stored && !options.volatile ? { ...stored, value: withoutVolatile(stored.value) } : stored;
    const definition = definitions.get(key);
    const sensitive = definition?.sensitivity === 'sensitive';
    // A sensitive resource's values the golden has no fingerprint of, or this check no key for,
    // are taken as equal here and named below: never a silent pass.
    const sealed =
      want && sensitive && actual.has(key)
        ? comparableSealed(want.value, actual.get(key) ?? {}, definition)
        : undefined;
    const got = sealed?.got ?? actual.get(key);
    const findings: Finding<CheckCode>[] = [];
    if (want && sealed) findings.push(...unsealedFindings(want, key, sealed.unsealed));
    if (want && !got) {
      findings.push({
        ...at(want),
        code: 'missing-resource',
        severity: 'error',
        message: `expected ${pointerOfKey(key)}, but the converged state has no such resource`,
      });
    } else if (!want && got) {
      findings.push({
        code: 'unexpected-resource',
        severity: 'error',
        message: `the converged state has ${pointerOfKey(key)}, which the expectations do not list`,
        ...goldenOf(typeOfKey(key)),
        pointer: '',
      });
    } else if (want && got && !deepEqual(want.value, got)) {
      findings.push({
        ...at(want),
        // At the first field that differs (or the nearest of its parents the golden has).
        ...firstDifferenceAt(want, got),
        code: 'unexpected-state',
        severity: 'error',
        message: `${pointerOfKey(key)} differs from the expectation${fingerprintNote(want.value, got, definition)}`,
        // A Secret's values masked, as kubectl diff masks them: which key changed, not to what.
        diff: unifiedDiff(
          want.file,
          ...maskChangedValues(want.value, got, maskedDocumentFields(definition, got)),
        ),
      });
    }
    cases.push({ check: 'expectations', name: key, findings: [...findings] });
  }
  return [...expected.problems, ...cases];
}

/**
 * Writes the golden tree: one `<type>.yaml` per type, each atomically. Of the other files in `dir`,
 * only golden files an earlier `--update` wrote are removed (see `golden-files.ts`). A file that
 * cannot be written, or a special file where one goes, is a {@link FileWriteError} naming it.
 */
export async function writeExpectations(
  dir: string,
  groups: readonly ResourceGroup[],
  options: GoldenOptions,
  displayDir: string = dir,
): Promise<GoldenUpdate> {
  const written: string[] = [];
  const changed: string[] = [];
  let current = displayDir;
  try {
    await mkdir(dir, { recursive: true });
    // What an interrupted --update left: its golden files are whole, its temporary files not gone.
    await removeStaleTemporaries(dir);
    // Every path is checked before any is written: a FIFO at the index (or at a golden's place)
    // refuses the update with the goldens as they were, not half replaced.
    const names = groups.map((group) => `${group.type}.yaml`);
    const fingerprint = await fingerprinterFor(groups, options);
    for (const name of [GOLDEN_INDEX, ...names]) {
      current = path.join(displayDir, name);
      await assertReplaceable(path.join(dir, name));
    }
    for (const group of groups) {
      const name = `${group.type}.yaml`;
      const text = group.resources
        .map((r) => `---\n${outputYaml(goldenDocument(r, group, options, fingerprint))}`)
        .join('');
      current = path.join(displayDir, name);
      written.push(name);
      // A golden as it was is left alone: the update names only what it changed.
      if ((await readFile(path.join(dir, name), 'utf8').catch(() => undefined)) === text) continue;
      await writeFileAtomically(path.join(dir, name), text);
      changed.push(current);
    }
    current = displayDir;
    // The old index stays until the stale files are gone: a run stopped between still knows them.
    const removed = await removeGoldenFiles(dir, await staleGoldenFiles(dir, written));
    current = path.join(displayDir, GOLDEN_INDEX);
    await writeGoldenIndex(dir, written);
    const unsealed =
      fingerprint === undefined
        ? groups
            .filter((g) => g.definition?.sensitivity === 'sensitive' && g.resources.length > 0)
            .map((g) => path.join(displayDir, `${g.type}.yaml`))
        : [];
    return {
      wrote: changed,
      removed: removed.map((name) => path.join(displayDir, name)),
      ...(unsealed.length > 0 ? { unsealed } : {}),
    };
  } catch (error) {
    throw new FileWriteError(current, error);
  }
}

async function readExpected(
  dir: string,
  displayDir: string,
  kinds: ReadonlyMap<string, ResourceDefinition>,
): Promise<{
  documents: Map<string, ExpectedDocument>;
  problems: CheckCase[];
  unreadable: boolean;
}> {
  const documents = new Map<string, ExpectedDocument>();
  const problems: CheckCase[] = [];
  let entries: string[];
  try {
    const all = await readdir(dir, { recursive: true });
    // With the index `--update` keeps, the goldens are the files it lists that are there.
    const owned = await goldenFilesToCompare(dir);
    entries = (
      owned === undefined
        ? all.filter((e) => YAML_FILE.test(e))
        : owned.filter((name) => all.includes(name))
    ).sort();
  } catch {
    problems.push({
      check: 'expectations',
      name: displayDir,
      findings: [
        {
          code: 'unreadable-expectations',
          severity: 'error',
          message: `cannot read the expectations directory ${displayDir}: record it with --update`,
          file: displayDir,
          line: 0,
          col: 0,
          pointer: '',
        },
      ],
    });
    return { documents, problems, unreadable: true };
  }
  for (const entry of entries) {
    const file = path.join(displayDir, entry);
    // A FIFO or a device named like a golden is no golden: reading it could block for ever.
    const info = await stat(path.join(dir, entry)).catch(() => undefined);
    if (!info?.isFile()) {
      if (!info?.isDirectory()) problems.push(notAGolden(file));
      continue;
    }
    const text = await readFile(path.join(dir, entry), 'utf8');
    const lineCounter = new LineCounter();
    for (const doc of parseAllDocuments(text, { lineCounter, logLevel: 'error' })) {
      if (!('contents' in doc) || doc.contents === null) continue;
      const start = lineCounter.linePos(doc.contents.range[0]);
      const value: unknown = doc.errors.length > 0 ? undefined : doc.toJS({ maxAliasCount: 100 });
      const key =
        typeof value === 'object' && value !== null
          ? keyOf(value as Record<string, unknown>, kinds, entry)
          : '';
      if (key === '') {
        problems.push({
          check: 'expectations',
          name: `${file}:${start.line}`,
          findings: [
            {
              code: 'invalid-expectation',
              severity: 'error',
              message:
                'not a resource document: metadata.namespace, type and id, or apiVersion, kind and metadata.name',
              file,
              line: start.line,
              col: start.col,
              pointer: '',
            },
          ],
        });
        continue;
      }
      documents.set(key, {
        key,
        value: value as Record<string, unknown>,
        file,
        line: start.line,
        col: start.col,
        placeOf: (at) => {
          const node: unknown = doc.getIn(at, true);
          const range = isNode(node) ? node.range : undefined;
          return range ? lineCounter.linePos(range[0]) : undefined;
        },
      });
    }
  }
  return { documents, problems, unreadable: false };
}

function notAGolden(file: string): CheckCase {
  return {
    check: 'expectations',
    name: file,
    findings: [
      {
        code: 'invalid-expectation',
        severity: 'error',
        message: `${file} is not a regular file`,
        file,
        line: 0,
        col: 0,
        pointer: '',
      },
    ],
  };
}

/**
 * Where a resource the expectations do not list belongs: the file that holds the first expected
 * resource of its type, at that document; else `<dir>/<type>.yaml`, the file `--update` writes
 * (a file, so that a CI annotation has a place, not a directory).
 */
function goldenFiles(
  documents: Iterable<ExpectedDocument>,
  displayDir: string,
): (type: string) => Pick<Finding, 'file' | 'line' | 'col'> {
  const byType = new Map<string, ExpectedDocument>();
  for (const doc of documents) {
    const type = typeOfKey(doc.key);
    const first = byType.get(type);
    if (!first || doc.file < first.file || (doc.file === first.file && doc.line < first.line)) {
      byType.set(type, doc);
    }
  }
  return (type) => {
    const doc = byType.get(type);
    return doc
      ? { file: doc.file, line: doc.line, col: doc.col }
      : { file: path.join(displayDir, `${type}.yaml`), line: 0, col: 0 };
  };
}

/** What seals the state's sensitive values: only a state with some, and a key, needs one. */
function fingerprinterFor(
  groups: readonly ResourceGroup[],
  options: GoldenOptions,
): Promise<Fingerprinter | undefined> {
  const sensitive = groups.some(
    (g) => g.definition?.sensitivity === 'sensitive' && g.resources.length > 0,
  );
  return fingerprinter(sensitive ? options.key : undefined);
}

/** The definition of each resource of the state, by `namespace/type/id` key. */
function definitionsByKey(groups: readonly ResourceGroup[]): Map<string, ResourceDefinition> {
  const out = new Map<string, ResourceDefinition>();
  for (const group of groups) {
    if (group.definition === undefined) continue;
    for (const { metadata } of group.resources) {
      out.set(`${metadata.namespace}/${metadata.type}/${metadata.id}`, group.definition);
    }
  }
  return out;
}

/** What a differing sensitive resource's message adds when fingerprints of its values differ. */
function fingerprintNote(
  want: Record<string, unknown>,
  got: Record<string, unknown>,
  definition: ResourceDefinition | undefined,
): string {
  if (definition?.sensitivity !== 'sensitive') return '';
  const changed = changedFingerprints(want, got, definition);
  if (changed.length === 0) return '';
  return ` (sensitive, compared by fingerprints keyed with ${GOLDEN_KEY_ENV}: ${changed.join(', ')} changed, or the key is not the one they were recorded with)`;
}

/**
 * What a check of a sensitive resource could not compare: fingerprints without the key to
 * compare them is an error (the golden says what the values were, the check cannot verify it);
 * values the golden holds no fingerprint of, a warning (a `--strict` check fails on it).
 */
function unsealedFindings(
  want: ExpectedDocument,
  key: string,
  unsealed: UnsealedFields,
): Finding<CheckCode>[] {
  const findings: Finding<CheckCode>[] = [];
  if (unsealed.noKey.length > 0) {
    findings.push({
      ...at(want),
      code: 'sensitive-not-compared',
      severity: 'error',
      message: `${pointerOfKey(key)}: the golden holds keyed fingerprints of its sensitive values (${unsealed.noKey.join(', ')}), and ${GOLDEN_KEY_ENV} is not set to compare them: set it to the key they were recorded with`,
    });
  }
  if (unsealed.notRecorded.length > 0) {
    findings.push({
      ...at(want),
      code: 'sensitive-not-compared',
      severity: 'warning',
      message: `${pointerOfKey(key)}: its sensitive values (${unsealed.notRecorded.join(', ')}) were not compared: the golden holds no fingerprint of them; set ${GOLDEN_KEY_ENV} (a secret of the CI and of who records) and record again with --update`,
    });
  }
  return findings;
}

/** A `namespace/type/id` key as cosi names a resource everywhere else: `type(namespace/id)`. */
function pointerOfKey(key: string): string {
  const [namespace = '', type = '', ...id] = key.split('/');
  return `${type}(${namespace}/${id.join('/')})`;
}

/** The type of a `namespace/type/id` key (a type has no slash; an id may). */
function typeOfKey(key: string): string {
  return key.split('/', 2)[1] ?? '';
}

/** The converged state's Kubernetes kinds, by `apiVersion kind`, for reading golden documents. */
function kindsOf(groups: readonly ResourceGroup[]): Map<string, ResourceDefinition> {
  const kinds = new Map<string, ResourceDefinition>();
  for (const { definition } of groups) {
    const kind = definition?.kubernetes;
    if (kind) kinds.set(`${kind.apiVersion} ${kind.kind}`, definition);
  }
  return kinds;
}

/**
 * The `namespace/type/id` key of a golden document: a cosi-shaped one names them in its metadata;
 * a Kubernetes-shaped one (as `--update` writes a CRD's or a built-in kind's resource) by
 * `apiVersion`, `kind`, `metadata.name` and `metadata.namespace`, its type being that of the kind
 * in the converged state, or else the `<type>.yaml` file it is in. `''` for neither.
 */
function keyOf(
  doc: Record<string, unknown>,
  kinds: ReadonlyMap<string, ResourceDefinition> = new Map(),
  entry = '',
): string {
  const md = doc.metadata as Record<string, unknown> | undefined;
  if (!md || typeof md !== 'object') return '';
  if (
    typeof md.namespace === 'string' &&
    typeof md.type === 'string' &&
    typeof md.id === 'string'
  ) {
    return `${md.namespace}/${md.type}/${md.id}`;
  }
  const { apiVersion, kind } = doc;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || typeof md.name !== 'string') {
    return '';
  }
  const definition = kinds.get(`${apiVersion} ${kind}`);
  const fileType = path.basename(entry) === entry ? entry.replace(YAML_FILE, '') : '';
  const type = definition?.type ?? (fileType !== '' ? fileType : kind);
  const namespace =
    typeof md.namespace === 'string' ? md.namespace : (definition?.defaultNamespace ?? 'default');
  return `${namespace}/${type}/${md.name}`;
}

function firstDifferenceAt(
  doc: ExpectedDocument,
  got: unknown,
): Partial<Pick<Finding<CheckCode>, 'line' | 'col'>> {
  const path = firstDifference(doc.value, got);
  for (let n = path.length; n > 0; n--) {
    const place = doc.placeOf?.(path.slice(0, n));
    if (place) return { line: place.line, col: place.col };
  }
  return {};
}

/** The path of the first value where two plain values differ (`[]`: at the top, or none). */
function firstDifference(want: unknown, got: unknown): (string | number)[] {
  if (deepEqual(want, got)) return [];
  if (Array.isArray(want) && Array.isArray(got)) {
    for (let i = 0; i < Math.max(want.length, got.length); i++) {
      if (!deepEqual(want[i], got[i])) return [i, ...firstDifference(want[i], got[i])];
    }
    return [];
  }
  if (isRecord(want) && isRecord(got)) {
    for (const key of [...Object.keys(want), ...Object.keys(got)]) {
      if (!deepEqual(want[key], got[key])) return [key, ...firstDifference(want[key], got[key])];
    }
  }
  return [];
}

function at(doc: ExpectedDocument): Pick<Finding<CheckCode>, 'file' | 'line' | 'col' | 'pointer'> {
  return { file: doc.file, line: doc.line, col: doc.col, pointer: '' };
}

/** A unified diff without its "Index:" and "===" header lines: ---/+++ and the hunks stay. */
function withoutPatchHeader(patch: string): string {
  return patch
    .split('\n')
    .filter((line) => !line.startsWith('Index:') && !/^=+$/.test(line))
    .join('\n')
    .trimEnd();
}
