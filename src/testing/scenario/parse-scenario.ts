import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import {
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseAllDocuments,
  type Node,
  type Scalar,
  type YAMLMap,
} from 'yaml';
import { parseDurationText } from '../../app/parse-duration.js';
import { didYouMean } from '../../loaders/did-you-mean.js';
import type { ManifestFile } from '../../loaders/manifest-resource.js';
import type {
  ErrorExpectation,
  ExpectedDocument,
  ExpectedFinding,
  Place,
  ResourceRef,
  Scenario,
  ScenarioProblem,
  Step,
} from './scenario.js';
import { isRecord } from '../../engine/resource/plain-data.js';

/** The keys of a scenario. */
const SCENARIO_KEYS = [
  'name',
  'config',
  'manifests',
  'kubernetesVersion',
  'converge',
  'steps',
] as const;
/** The kinds of step: each step is a mapping with one of them (and maybe `name`, `expect-error`). */
const STEP_KINDS = [
  'apply',
  'edit',
  'destroy',
  'advance',
  'expect',
  'expect-absent',
  'expect-findings',
  'expect-converged',
] as const;
const CHANGE_KINDS = new Set(['apply', 'edit', 'destroy']);

/** What parsing a scenario file gives: its scenarios, or every problem of it. */
export interface ParsedScenarioFile {
  readonly scenarios: readonly Scenario[];
  readonly problems: readonly ScenarioProblem[];
}

/**
 * Parses a scenario file: one scenario per YAML document. Every problem is reported, each at its
 * line and column; a file with any has no scenarios to run.
 *
 * @param file the file as findings name it; `absolute`: where it is, for its relative paths.
 */
export function parseScenarioFile(
  text: string,
  file: string,
  absolute: string,
): ParsedScenarioFile {
  const lineCounter = new LineCounter();
  const problems: ScenarioProblem[] = [];
  const scenarios: Scenario[] = [];
  const dir = path.dirname(absolute);
  const placeOf = (node: Node | null | undefined): Place => {
    const offset = node?.range?.[0] ?? 0;
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, col };
  };
  const problem = (node: Node | null | undefined, message: string): void => {
    problems.push({ at: placeOf(node), message });
  };
  const documents = parseAllDocuments(text, {
    lineCounter,
    prettyErrors: false,
    logLevel: 'error',
  });
  for (const doc of Array.isArray(documents) ? documents : [documents]) {
    for (const error of doc.errors) {
      const { line, col } = lineCounter.linePos(error.pos[0]);
      problems.push({
        at: { file, line, col },
        message: `YAML: ${error.message.split('\n')[0] ?? ''}`,
      });
    }
    if (doc.errors.length > 0 || doc.contents === null) continue;
    const parser = new StepParser(text, dir, placeOf, problem, (at, message) =>
      problems.push({ at, message }),
    );
    const scenario = parser.scenario(doc.contents, path.basename(file));
    if (scenario) scenarios.push(scenario);
  }
  if (problems.length === 0 && scenarios.length === 0) {
    problems.push({ at: { file, line: 1, col: 1 }, message: 'no scenario in the file' });
  }
  return { scenarios: problems.length === 0 ? scenarios : [], problems };
}

/** One expected document, or a problem when it names no resource. */
function expectedDocument(
  item: Node,
  placeOf: (node: Node | null | undefined) => Place,
  problem: (node: Node | null | undefined, message: string) => void,
): ExpectedDocument | undefined {
  const document = isMap(item) ? (item.toJSON() as Record<string, unknown>) : undefined;
  const metadata = isRecord(document?.metadata) ? document.metadata : {};
  const kind = typeof document?.kind === 'string' ? document.kind : undefined;
  const type = kind ?? (typeof metadata.type === 'string' ? metadata.type : undefined);
  const id = kind !== undefined ? metadata.name : metadata.id;
  if (document === undefined || type === undefined || typeof id !== 'string') {
    problem(
      item,
      'an expected document names its resource: metadata.type and metadata.id, or kind and metadata.name',
    );
    return undefined;
  }
  const at = placeOf(item);
  return {
    at,
    ref: {
      at,
      type,
      ...(kind !== undefined && typeof document.apiVersion === 'string'
        ? { apiVersion: document.apiVersion }
        : {}),
      id,
      ...(typeof metadata.namespace === 'string' ? { namespace: metadata.namespace } : {}),
    },
    document,
  };
}

/** What a resource reference may be, for a problem with one. */
const REF_FORMS =
  'expected a resource reference: TYPE/ID, { type, id }, { apiVersion, kind, name }, or a path to a file of documents (configmap.yaml)';

class StepParser {
  constructor(
    readonly text: string,
    readonly dir: string,
    readonly placeOf: (node: Node | null | undefined) => Place,
    readonly problem: (node: Node | null | undefined, message: string) => void,
    /** A problem in another file than the scenario (one an `expect` names). */
    readonly problemAt: (at: Place, message: string) => void,
  ) {}

  scenario(node: Node, fallbackName: string): Scenario | undefined {
    if (!isMap(node)) {
      this.problem(node, `a scenario is a mapping with ${SCENARIO_KEYS.join(', ')}`);
      return undefined;
    }
    this.unknownKeys(node, SCENARIO_KEYS, 'a scenario');
    const name = this.string(node, 'name') ?? fallbackName;
    const config = this.string(node, 'config');
    const kubernetesVersion = this.string(node, 'kubernetesVersion');
    const manifestsNode = node.get('manifests', true) as Node | undefined;
    const manifests = manifestsNode === undefined ? undefined : this.paths(manifestsNode);
    const convergeNode = node.get('converge', true) as Node | undefined;
    const converge = isScalar(convergeNode) ? convergeNode.value : undefined;
    if (convergeNode !== undefined && typeof converge !== 'boolean') {
      this.problem(convergeNode, '`converge` is true or false');
    }
    const stepsNode = node.get('steps', true) as Node | undefined;
    const steps: Step[] = [];
    if (stepsNode === undefined) this.problem(node, 'a scenario needs `steps`: a list');
    else if (!isSeq(stepsNode)) this.problem(stepsNode, '`steps` must be a list');
    else if (stepsNode.items.length === 0) {
      // vitest fails a file with no test: a scenario that checks nothing must not pass.
      this.problem(stepsNode, '`steps` is empty: a scenario needs at least one step');
    } else {
      for (const item of stepsNode.items) {
        const step = this.step(item as Node);
        if (step) steps.push(step);
      }
    }
    const configNode = node.get('config', true) as Node | undefined;
    return {
      at: this.placeOf(node),
      name,
      dir: this.dir,
      ...(config !== undefined
        ? { config: path.resolve(this.dir, config), configAt: this.placeOf(configNode) }
        : {}),
      ...(manifests !== undefined ? { manifests, manifestsAt: this.placeOf(manifestsNode) } : {}),
      ...(kubernetesVersion !== undefined ? { kubernetesVersion } : {}),
      ...(converge === false ? { converge: false as const } : {}),
      steps,
    };
  }

  step(node: Node): Step | undefined {
    if (!isMap(node)) {
      this.problem(node, `a step is a mapping with one of ${STEP_KINDS.join(', ')}`);
      return undefined;
    }
    const kinds = node.items
      .map((pair) => (isScalar(pair.key) ? String(pair.key.value) : ''))
      .filter((key) => (STEP_KINDS as readonly string[]).includes(key));
    if (kinds.length === 0) {
      // A key that is neither a kind nor a step's other keys is likely the kind, misspelt.
      const unknown = node.items.find(
        (pair) => isScalar(pair.key) && !['name', 'expect-error'].includes(String(pair.key.value)),
      );
      const key = unknown ? String((unknown.key as Scalar).value) : undefined;
      const guess = key === undefined ? undefined : didYouMean(key, STEP_KINDS);
      this.problem(
        (unknown?.key as Node | undefined) ?? node,
        `${key === undefined ? '' : `unknown step ${JSON.stringify(key)}${guess ? ` (did you mean ${JSON.stringify(guess)}?)` : ''}: `}a step needs one of ${STEP_KINDS.join(', ')}`,
      );
      return undefined;
    }
    if (kinds.length !== 1) {
      this.problem(node, `a step has one kind, not ${kinds.join(' and ')}`);
      return undefined;
    }
    const kind = kinds[0] as (typeof STEP_KINDS)[number];
    this.unknownKeys(
      node,
      [kind, 'name', ...(CHANGE_KINDS.has(kind) ? ['expect-error'] : [])],
      `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} step`,
    );
    const at = this.placeOf(node);
    const name = this.string(node, 'name') ?? kind;
    const value = node.get(kind, true) as Node | undefined;
    const errorNode = node.get('expect-error', true) as Node | undefined;
    const expectError = errorNode === undefined ? undefined : this.errorExpectation(errorNode);
    const change = { at, name, ...(expectError ? { expectError } : {}) };
    switch (kind) {
      case 'apply':
        return { kind, ...change, ...this.applied(value) };
      case 'edit':
        return this.edit(value, change);
      case 'destroy':
        return { kind, ...change, refs: this.refs(value, kind) };
      case 'advance': {
        const text = isScalar(value) ? String(value.value) : '';
        const ms = parseDurationText(text);
        if (ms === undefined) {
          this.problem(value ?? node, '`advance` takes a duration: 30s, 5m, 1h30m, 500ms');
          return undefined;
        }
        return { kind, at, name, ms };
      }
      case 'expect':
        return { kind, at, name, documents: this.expected(value) };
      case 'expect-absent':
        return { kind, at, name, refs: this.refs(value, kind) };
      case 'expect-findings':
        return { kind, at, name, findings: this.findingQueries(value) };
      case 'expect-converged': {
        const converged = isScalar(value) ? value.value : undefined;
        if (typeof converged !== 'boolean') {
          this.problem(value ?? node, '`expect-converged` is true or false');
          return undefined;
        }
        return { kind, at, name, converged };
      }
    }
  }

  /** `apply`: a path, a document, or a list of either. */
  applied(node: Node | undefined): { paths: string[]; files: ManifestFile[] } {
    const paths: string[] = [];
    const files: ManifestFile[] = [];
    const items = isSeq(node) ? (node.items as Node[]) : node === undefined ? [] : [node];
    if (items.length === 0)
      this.problem(node, '`apply` takes a path, a document or a list of them');
    for (const item of items) {
      if (isScalar(item) && typeof item.value === 'string') {
        paths.push(path.resolve(this.dir, item.value));
      } else if (isMap(item)) {
        files.push(this.inlineFile(item));
      } else {
        this.problem(item, '`apply` takes a path or a manifest document');
      }
    }
    return { paths, files };
  }

  /**
   * An inline document as a manifest file of its own, at its place: the text is the document's
   * own source, and its origin where that stands in the scenario, so that findings about it
   * name the scenario's line and column. A block mapping's first line is indented as its other
   * lines are, with spaces for what stood before it; a flow mapping needs no indentation, and
   * stands as it is (it may be far along a long line: spaces up to it would make a list of n
   * documents cost n x n).
   */
  inlineFile(node: YAMLMap): ManifestFile {
    const [start = 0, end = start] = node.range ?? [];
    const at = this.placeOf(node);
    const indent = node.flow === true ? 0 : at.col - 1;
    return {
      path: at.file,
      text: `${' '.repeat(indent)}${this.text.slice(start, end)}\n`,
      origin: { line: at.line, col: at.col - indent },
    };
  }

  edit(
    node: Node | undefined,
    change: { at: Place; name: string; expectError?: ErrorExpectation },
  ): Step | undefined {
    if (!isMap(node)) {
      this.problem(node, '`edit` takes type, id, and patch, spec, labels or annotations to merge');
      return undefined;
    }
    this.unknownKeys(
      node,
      ['type', 'id', 'namespace', 'patch', 'spec', 'labels', 'annotations'],
      '`edit`',
    );
    const ref = this.ref(node);
    if (!ref) return undefined;
    const json = node.toJSON() as Record<string, unknown>;
    if (
      json.patch === undefined &&
      json.spec === undefined &&
      json.labels === undefined &&
      json.annotations === undefined
    ) {
      this.problem(node, '`edit` needs patch, spec, labels or annotations to merge');
    }
    if (json.patch !== undefined && !isRecord(json.patch)) {
      this.problem(
        node.get('patch', true),
        '`patch` is a mapping: a merge patch of the object, as `kubectl patch --type merge` takes it',
      );
    }
    return {
      kind: 'edit',
      ...change,
      ref,
      ...(isRecord(json.patch) ? { patch: json.patch } : {}),
      ...(json.spec !== undefined ? { spec: json.spec } : {}),
      ...(isRecord(json.labels) ? { labels: json.labels as Record<string, string | null> } : {}),
      ...(isRecord(json.annotations)
        ? { annotations: json.annotations as Record<string, string | null> }
        : {}),
    };
  }

  /**
   * One reference or a list of them: `{ type, id | ids, namespace? }`, `TYPE/ID`,
   * `{ apiVersion, kind, name, namespace? }` (chainsaw's `ref`), or a path (relative to the
   * scenario) to a file of documents, each naming a resource by its apiVersion, kind and
   * metadata (chainsaw's and kro's e2e `error` and `delete` files).
   */
  refs(node: Node | undefined, step: 'destroy' | 'expect-absent'): ResourceRef[] {
    const items = isSeq(node) ? (node.items as Node[]) : node === undefined ? [] : [node];
    const refs: ResourceRef[] = [];
    for (const item of items) {
      if (isScalar(item) && typeof item.value === 'string' && this.isPath(item.value)) {
        refs.push(...this.expectedFile(item, item.value, step).map((d) => d.ref));
        continue;
      }
      if (isMap(item) && item.has('kind')) {
        const ref = this.kubernetesRef(item);
        if (ref) refs.push(ref);
        continue;
      }
      if (isMap(item) && item.has('ids')) {
        this.unknownKeys(item, ['type', 'ids', 'namespace'], 'a resource reference');
        const type = this.string(item, 'type');
        const ids = item.get('ids', true) as Node | undefined;
        if (type === undefined) this.problem(item, 'a resource reference needs `type`');
        if (!isSeq(ids) || !ids.items.every((i) => isScalar(i) && typeof i.value === 'string')) {
          this.problem(ids ?? item, '`ids` is a list of ids');
          continue;
        }
        if (ids.items.length === 0) {
          this.problem(ids, '`ids` is empty: name at least one id');
          continue;
        }
        const namespace = this.string(item, 'namespace');
        for (const idNode of ids.items as Node[]) {
          refs.push({
            at: this.placeOf(idNode),
            type: type ?? '',
            id: String((idNode as { value: unknown }).value),
            ...(namespace !== undefined ? { namespace } : {}),
          });
        }
        continue;
      }
      if (isMap(item)) this.unknownKeys(item, ['type', 'id', 'namespace'], 'a resource reference');
      const ref = this.ref(item);
      if (ref) refs.push(ref);
    }
    if (items.length === 0) this.problem(node, REF_FORMS);
    return refs;
  }

  /**
   * Whether a reference is a path to a file of documents: a name ending in `.yaml`, `.yml` or
   * `.json` that is a file, starts with `./` or `../`, or is no `TYPE/ID` (a ConfigMap may be named
   * `app.yaml`).
   */
  isPath(value: string): boolean {
    if (!/\.(ya?ml|json)$/i.test(value)) return false;
    // No type is named `.` or `..`: a missing `../x.yaml` is a path that does not exist.
    if (/^\.\.?\//.test(value)) return true;
    const slash = value.indexOf('/');
    if (slash <= 0 || slash === value.length - 1) return true;
    try {
      return statSync(path.resolve(this.dir, value)).isFile();
    } catch {
      return false;
    }
  }

  /** `{ apiVersion, kind, name, namespace? }`, as chainsaw's `ref` names a resource. */
  kubernetesRef(node: YAMLMap): ResourceRef | undefined {
    this.unknownKeys(node, ['apiVersion', 'kind', 'name', 'namespace'], 'a resource reference');
    const apiVersion = this.string(node, 'apiVersion');
    const kind = this.string(node, 'kind');
    const name = this.string(node, 'name');
    const namespace = this.string(node, 'namespace');
    if (kind === undefined || name === undefined) {
      this.problem(node, 'a resource reference by kind needs `kind` and `name`');
      return undefined;
    }
    return {
      at: this.placeOf(node),
      type: kind,
      id: name,
      ...(apiVersion !== undefined ? { apiVersion } : {}),
      ...(namespace !== undefined ? { namespace } : {}),
    };
  }

  /** `{ type, id, namespace? }`, or `TYPE/ID` as kubectl writes it (`deploy/web`). */
  ref(node: Node | undefined): ResourceRef | undefined {
    if (isScalar(node) && typeof node.value === 'string') {
      const slash = node.value.indexOf('/');
      if (slash > 0 && slash < node.value.length - 1) {
        return {
          at: this.placeOf(node),
          type: node.value.slice(0, slash),
          id: node.value.slice(slash + 1),
        };
      }
    }
    if (!isMap(node)) {
      this.problem(node, REF_FORMS);
      return undefined;
    }
    const type = this.string(node, 'type');
    const id = this.string(node, 'id');
    const namespace = this.string(node, 'namespace');
    if (type === undefined || id === undefined) {
      this.problem(node, 'a resource reference needs `type` and `id`');
      return undefined;
    }
    return { at: this.placeOf(node), type, id, ...(namespace !== undefined ? { namespace } : {}) };
  }

  /**
   * `expect`: a document or a list; cosi-shaped (`metadata.type`) or Kubernetes-shaped (`kind`).
   * A path (relative to the scenario) stands for the documents of that file, as chainsaw's and
   * kro's e2e `assert` files hold them.
   */
  expected(node: Node | undefined): ExpectedDocument[] {
    const items = isSeq(node) ? (node.items as Node[]) : node === undefined ? [] : [node];
    if (items.length === 0) this.problem(node, '`expect` takes a document or a list of them');
    const documents: ExpectedDocument[] = [];
    for (const item of items) {
      if (isScalar(item) && typeof item.value === 'string' && item.value !== '') {
        documents.push(...this.expectedFile(item, item.value));
        continue;
      }
      const expected = expectedDocument(item, this.placeOf, this.problem);
      if (expected) documents.push(expected);
    }
    return documents;
  }

  /** The documents of a file a step names (`expect`, ...), each placed in that file. */
  expectedFile(item: Node, relative: string, step = 'expect'): ExpectedDocument[] {
    let text: string;
    try {
      text = readFileSync(path.resolve(this.dir, relative), 'utf8');
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      this.problem(
        item,
        code === 'ENOENT'
          ? `\`${step}\`: ${relative} does not exist (a path is relative to the scenario)`
          : `\`${step}\`: ${relative} cannot be read (${String(code ?? error)})`,
      );
      return [];
    }
    const file = path.join(path.dirname(this.placeOf(item).file), relative);
    const lineCounter = new LineCounter();
    const placeOf = (node: Node | null | undefined): Place => {
      const { line, col } = lineCounter.linePos(node?.range?.[0] ?? 0);
      return { file, line, col };
    };
    const documents: ExpectedDocument[] = [];
    let problems = 0;
    const problem = (node: Node | null | undefined, message: string): void => {
      problems++;
      this.problemAt(placeOf(node), message);
    };
    for (const doc of parseAllDocuments(text, { lineCounter, prettyErrors: false })) {
      for (const error of doc.errors) {
        const { line, col } = lineCounter.linePos(error.pos[0]);
        problems++;
        this.problemAt({ file, line, col }, `YAML: ${error.message.split('\n')[0] ?? ''}`);
      }
      if (doc.errors.length > 0 || doc.contents === null) continue;
      const expected = expectedDocument(doc.contents, placeOf, problem);
      if (expected) documents.push(expected);
    }
    if (documents.length === 0 && problems === 0) {
      this.problem(item, `\`${step}\`: ${relative} holds no document`);
    }
    return documents;
  }

  findingQueries(node: Node | undefined): ExpectedFinding[] {
    const items = isSeq(node) ? (node.items as Node[]) : node === undefined ? [] : [node];
    if (items.length === 0)
      this.problem(
        node,
        isSeq(node)
          ? '`expect-findings` is empty: name at least one finding (a code, or { code, message?, file?, severity? }); each must be among the findings'
          : '`expect-findings` takes a list of { code, message?, file? }',
      );
    return items.map((i) => this.findingQuery(i)).filter((q) => q !== undefined);
  }

  findingQuery(node: Node): ExpectedFinding | undefined {
    if (isScalar(node) && typeof node.value === 'string') {
      return { at: this.placeOf(node), code: node.value };
    }
    if (!isMap(node)) {
      this.problem(node, 'an expected finding is a code or { code, message?, file?, severity? }');
      return undefined;
    }
    this.unknownKeys(node, ['code', 'message', 'file', 'severity'], 'an expected finding');
    const code = this.string(node, 'code');
    if (code === undefined) {
      this.problem(node, 'an expected finding needs `code`');
      return undefined;
    }
    const message = this.string(node, 'message');
    const file = this.string(node, 'file');
    const severity = this.string(node, 'severity');
    if (severity !== undefined && severity !== 'error' && severity !== 'warning') {
      this.problem(node.get('severity', true), '`severity` is error or warning');
    }
    return {
      at: this.placeOf(node),
      code,
      ...(message !== undefined ? { message } : {}),
      ...(file !== undefined ? { file } : {}),
      ...(severity === 'error' || severity === 'warning' ? { severity } : {}),
    };
  }

  errorExpectation(node: Node): ErrorExpectation | undefined {
    if (isScalar(node) && node.value === true) return {};
    if (isScalar(node) && typeof node.value === 'string') return { code: node.value };
    if (isMap(node)) {
      this.unknownKeys(node, ['code', 'message'], '`expect-error`');
      const code = this.string(node, 'code');
      const message = this.string(node, 'message');
      return {
        ...(code !== undefined ? { code } : {}),
        ...(message !== undefined ? { message } : {}),
      };
    }
    this.problem(node, '`expect-error` is true, a finding code, or { code?, message? }');
    return undefined;
  }

  paths(node: Node | undefined): string[] {
    if (node === undefined) return [];
    const items = isSeq(node) ? (node.items as Node[]) : [node];
    const paths: string[] = [];
    for (const item of items) {
      if (isScalar(item) && typeof item.value === 'string')
        paths.push(path.resolve(this.dir, item.value));
      else this.problem(item, '`manifests` takes a path or a list of paths');
    }
    return paths;
  }

  /** A string-valued key (a number is read as its text: `kubernetesVersion: 1.30`). */
  string(node: YAMLMap, key: string): string | undefined {
    const value = node.get(key, true) as Node | undefined;
    if (value === undefined) return undefined;
    if (isScalar(value) && (typeof value.value === 'string' || typeof value.value === 'number')) {
      return typeof value.value === 'number' ? (value.source ?? String(value.value)) : value.value;
    }
    this.problem(value, `\`${key}\` must be a string`);
    return undefined;
  }

  /**
   * Reports each key of `node` not in `known`. One that follows a known key left empty (`-
   * expect:` with its document not indented under it) says so: the commonest slip in YAML.
   */
  unknownKeys(node: YAMLMap, known: readonly string[], what: string): void {
    let emptyAbove: string | undefined;
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
      if (key !== undefined && known.includes(key)) {
        const value = pair.value as Node | null;
        emptyAbove = value === null || (isScalar(value) && value.value === null) ? key : undefined;
        continue;
      }
      const hint =
        emptyAbove === undefined
          ? ''
          : `; \`${emptyAbove}\` above it is empty: is it meant to be indented under \`${emptyAbove}\`?`;
      this.problem(
        pair.key as Node,
        `unknown key ${JSON.stringify(key ?? '?')} in ${what} (known: ${known.join(', ')})${hint}`,
      );
    }
  }
}
