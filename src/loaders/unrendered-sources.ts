/**
 * Sources of manifests that are not manifests themselves until a tool renders them: a Helm
 * chart's templates and values, kustomize's `kustomization.yaml` and the patches and
 * configuration files it names. A manifest repository holds them beside plain manifests; read
 * as manifests they make a page of errors about `{{ .Values }}` and `patchesStrategicMerge`
 * that says nothing useful. The directory walk (`walk-manifest-tree.ts`) sets them aside and
 * says so, with how to check what they render; a file named on the command line is read
 * whatever it is. With them, a JSON file the walk met that is no manifest at all (a
 * `package.json`): JSON files are read in directories, as kubectl and kubeconform read them.
 *
 * And the end-to-end tests of an operator's repository: a chainsaw test (`chainsaw-test.yaml`)
 * is no resource, and the files it asserts, expects errors from, patches or deletes with hold
 * partial objects that chainsaw matches against a cluster or merges into it (`status: {
 * readyReplicas: 1 }`, JMESPath keys), as do kuttl's and chainsaw's files named by convention
 * (`01-assert.yaml`, `02-errors.yaml`) in a test's directory. Read as manifests they are hundreds
 * of missing required fields; the files the tests apply, create or update are read.
 *
 * A name decides alone only what its content cannot contradict: a file named as a kustomization
 * or as another tool's that holds a Kubernetes object of another kind is read as a manifest
 * (see `object-head.ts`).
 */
import * as path from 'node:path';
import { parse, parseAllDocuments, YAMLParseError } from 'yaml';
import { createFinding, type Finding } from './finding.js';
import { jsonStreamObjects } from './json-stream.js';
import { objectHeadOf } from './object-head.js';
import type { UnrenderedKind, UnrenderedSource } from './unrendered-source.js';
import { isRecord } from '../engine/resource/plain-data.js';

export type { UnrenderedKind, UnrenderedSource } from './unrendered-source.js';

/** The file that makes a directory a Helm chart. */
export const HELM_CHART_FILE = 'Chart.yaml';

/** The directory of a chart whose files Helm installs as they are (no templating): read. */
export const HELM_CRDS_DIRECTORY = 'crds';

/** The directory of a chart's subcharts, each a chart (walked for their `crds/`). */
export const HELM_SUBCHARTS_DIRECTORY = 'charts';

/** What kustomize reads as a kustomization, by its file name. */
const KUSTOMIZATION_FILES = new Set(['kustomization.yaml', 'kustomization.yml', 'Kustomization']);

/**
 * Whether a file of this name is a kustomization (kustomize reads no other name), unless it holds
 * an object of another kind (see {@link isObjectNotKustomization}).
 */
export const isKustomizationFile = (name: string): boolean => KUSTOMIZATION_FILES.has(name);

/** The kinds a kustomization file holds: a kustomization, or a component. */
const KUSTOMIZATION_KINDS = new Set(['Kustomization', 'Component']);

/**
 * Whether a file named as a kustomization holds a Kubernetes object of another kind (a
 * `ConfigMap`): no kustomization, since kustomize refuses it, and so checked as a manifest, as
 * nothing else would check it. One with no `apiVersion` and `kind` (kustomize needs neither) is a
 * kustomization.
 */
export function isObjectNotKustomization(text: string): boolean {
  const head = objectHeadOf(text);
  return head !== undefined && !KUSTOMIZATION_KINDS.has(head.kind);
}

/** The files chainsaw reads a test from, by default (its `testFile` option). */
const CHAINSAW_TEST_FILES = new Set([
  'chainsaw-test.yaml',
  'chainsaw-test.yml',
  'chainsaw-test.json',
]);

/** Whether a file of this name is a chainsaw test. */
export const isChainsawTestFile = (name: string): boolean => CHAINSAW_TEST_FILES.has(name);

/**
 * A test step's assertion by kuttl's naming (`<step>-assert.yaml`, `<step>-errors.yaml`), which
 * chainsaw's manifests-based tests share: partial objects only in a test's directory, one that
 * holds a chainsaw test or a step the test applies (`00-install.yaml`); elsewhere the name says
 * nothing, and the file is read.
 */
const CONVENTIONAL_ASSERTION = /^\d+-(?:assert|errors)\.ya?ml$/i;

/** Whether a file of this name is an end-to-end test's assertion by kuttl's and chainsaw's naming. */
export const isConventionalAssertion = (name: string): boolean => CONVENTIONAL_ASSERTION.test(name);

/** A test step's file by kuttl's and chainsaw's naming (`<step>-<name>.yaml`). */
const CONVENTIONAL_STEP = /^\d+-.*\.ya?ml$/i;

/**
 * Whether a file of this name is a step an end-to-end test applies by kuttl's and chainsaw's
 * naming (`00-install.yaml`), in a directory of such steps and assertions.
 */
export const isConventionalStep = (name: string): boolean =>
  CONVENTIONAL_STEP.test(name) && !CONVENTIONAL_ASSERTION.test(name);

/**
 * The YAML files other tools read by a fixed name, each with what it is: a repository's CI, docs,
 * packaging and dependency files, which `cosi check .` meets beside the manifests. None is a
 * Kubernetes object (Skaffold's and Backstage's have an `apiVersion` and `kind` of their own:
 * {@link TOOL_API_GROUPS}; a helmfile and Helm values are a render's input); a file so named that
 * holds one all the same is checked (see {@link isObjectNotToolFile}).
 */
const TOOL_FILES: ReadonlyMap<string, string> = new Map(
  (
    [
      [['artifacthub-pkg'], "Artifact Hub's package metadata"],
      [['artifacthub-repo'], "Artifact Hub's repository metadata"],
      [['cloudbuild'], 'a Google Cloud Build configuration'],
      [['appveyor'], 'an AppVeyor configuration'],
      [['azure-pipelines'], 'an Azure Pipelines definition'],
      [['bitbucket-pipelines'], 'a Bitbucket Pipelines configuration'],
      [['wercker'], 'a Wercker configuration'],
      [['codecov'], 'a Codecov configuration'],
      [['mkdocs'], 'a MkDocs site configuration'],
      [['_config'], 'a Jekyll site configuration'],
      [['readthedocs'], 'a Read the Docs configuration'],
      [['docker-compose', 'compose'], 'a Docker Compose file'],
      [['skaffold'], 'a Skaffold configuration'],
      [['helmfile'], 'a helmfile (a Helm release list, rendered by helmfile template)'],
      [['values'], 'Helm values (the input of helm template -f)'],
      [['ct'], "chart-testing's configuration"],
      [['catalog-info'], 'a Backstage catalog entity'],
      [['action'], "a GitHub Action's metadata"],
      [['SECURITY-INSIGHTS'], 'an OpenSSF Security Insights file'],
      [['glide'], "Glide's dependency manifest"],
      [['pnpm-lock', 'pnpm-workspace'], "pnpm's lockfile or workspace"],
      [['buf', 'buf.gen', 'buf.work'], "Buf's configuration"],
      [['Taskfile'], 'a Task file'],
      [['goreleaser', 'golangci', 'lefthook'], 'a build tool configuration'],
      [['pubspec'], "a Dart package's manifest"],
      [['snapcraft'], "a snap's build definition"],
      [['devfile'], 'a Devfile'],
    ] as const
  ).flatMap(([stems, what]) =>
    stems.flatMap((stem) => [`${stem}.yaml`, `${stem}.yml`].map((name) => [name, what] as const)),
  ),
);

/**
 * The YAML files other tools read by their name in a directory of a fixed name: an OLM bundle's
 * `metadata/annotations.yaml` (what `opm` and OLM read of the bundle beside its manifests).
 */
const TOOL_FILES_IN: ReadonlyMap<string, string> = new Map([
  ['metadata/annotations.yaml', "an OLM bundle's annotations"],
  ['metadata/annotations.yml', "an OLM bundle's annotations"],
]);

/**
 * What a YAML file of this name, in a directory of this name, is when another tool reads it by
 * that name (`mkdocs.yml`: a MkDocs site configuration), else `undefined`.
 */
export const toolFileOf = (name: string, directory = ''): string | undefined =>
  TOOL_FILES.get(name) ?? TOOL_FILES_IN.get(`${directory}/${name}`);

/**
 * The groups of the `apiVersion`s the tools above give their own files: Skaffold's
 * (`skaffold/v4beta6`, `kind: Config`), Backstage's (`backstage.io/v1alpha1`) and the Kyverno
 * CLI's, whose test's `values.yaml` is `cli.kyverno.io/v1alpha1` `Values`.
 */
const TOOL_API_GROUPS: ReadonlySet<string> = new Set([
  'skaffold',
  'backstage.io',
  'cli.kyverno.io',
]);

/**
 * Whether a file named as another tool's ({@link toolFileOf}) holds a Kubernetes object instead:
 * its first document has a top-level string `apiVersion` and `kind`, of no tool's own group (a
 * `values.yaml` that is a `Deployment`). It is checked as a manifest: set aside, its mistakes
 * would pass unseen. Helm values, a compose file, a Skaffold configuration are set aside.
 */
export function isObjectNotToolFile(text: string): boolean {
  const head = objectHeadOf(text);
  if (head === undefined) return false;
  const slash = head.apiVersion.lastIndexOf('/');
  return slash === -1 || !TOOL_API_GROUPS.has(head.apiVersion.slice(0, slash));
}

/** How each kind is named in a sentence: one, and more than one. */
export const UNRENDERED_NAMES: Readonly<Record<UnrenderedKind, readonly [string, string]>> = {
  'helm-chart': ['Helm chart', 'Helm charts'],
  kustomization: ['kustomization', 'kustomizations'],
  'kustomize-input': ['kustomize patch or configuration', 'kustomize patches and configurations'],
  'json-file': ['JSON file that is no manifest', 'JSON files that are no manifests'],
  'tool-file': ["other tool's file", "other tools' files"],
  'go-test-data': ['Go test data directory', 'Go test data directories'],
  'hidden-directory': [
    'hidden directory holding manifests',
    'hidden directories holding manifests',
  ],
  'chainsaw-test': ['chainsaw test', 'chainsaw tests'],
  'policy-test': ['policy test', 'policy tests'],
  'test-assertion': ['test assertion or patch', 'test assertions and patches'],
};

/**
 * The kinds a report for people counts without a note each: the patches and configurations
 * kustomizations use, the files tests assert, JSON files that are no manifests, other tools'
 * files and Go test data (a repository has hundreds). A few of them are named where counted.
 */
export const COUNTED_ONLY_KINDS: ReadonlySet<UnrenderedKind> = new Set<UnrenderedKind>([
  'kustomize-input',
  'json-file',
  'tool-file',
  'go-test-data',
  'test-assertion',
]);

/** Up to this many files of a counted-only kind are named beside their count. */
const NAMED_WHEN_AT_MOST = 3;

/**
 * `2 Helm charts, 1 test assertion or patch (app/02-errors.yaml)`: how many of each kind were set
 * aside, the files of a counted-only kind named when there are few (a file set aside by its name
 * alone is then seen), or `''`.
 */
export function formatUnrenderedCounts(unrendered: readonly UnrenderedSource[] = []): string {
  const byKind = new Map<UnrenderedKind, string[]>();
  for (const u of unrendered) {
    const paths = byKind.get(u.kind) ?? [];
    paths.push(u.path);
    byKind.set(u.kind, paths);
  }
  return (Object.keys(UNRENDERED_NAMES) as UnrenderedKind[])
    .flatMap((kind) => {
      const paths = byKind.get(kind);
      if (paths === undefined) return [];
      const n = paths.length;
      const named =
        COUNTED_ONLY_KINDS.has(kind) && n <= NAMED_WHEN_AT_MOST ? ` (${paths.join(', ')})` : '';
      return [`${n} ${UNRENDERED_NAMES[kind][n === 1 ? 0 : 1]}${named}`];
    })
    .join(', ');
}

/** The set-aside entry of the chart in directory `dir` (as shown). */
export function helmChart(dir: string, others: readonly string[] = []): UnrenderedSource {
  // Directories (`name/`) and YAML files of the chart's that Helm does not render (files its
  // templates may read, or plain manifests kept there): not read either, and named, so that
  // none is missed unawares.
  const shown = others.slice(0, 3).map((name) => path.join(dir, name));
  const more =
    others.length > shown.length ? ` and ${String(others.length - shown.length)} more` : '';
  const unread =
    others.length === 0
      ? ''
      : `; ${shown.join(', ')}${more} ${others.length === 1 ? 'is' : 'are'} not read either (name ${others.length === 1 ? 'it' : 'one'} to check it: cosi check ${path.join(dir, others[0] as string).replace(/\/$/, '')})`;
  return {
    path: dir,
    kind: 'helm-chart',
    file: path.join(dir, HELM_CHART_FILE),
    message:
      `a Helm chart, read for its ${HELM_CRDS_DIRECTORY}/ only: its templates are manifests once ` +
      `rendered; check them with helm template ${dir} | cosi check -f -${unread}`,
  };
}

/** The set-aside entry of a kustomization file (as shown). */
export function kustomization(file: string): UnrenderedSource {
  const dir = path.dirname(file);
  return {
    path: file,
    kind: 'kustomization',
    file,
    message:
      `a kustomization, not a resource (the files it lists are read as they are); check what ` +
      `it builds with kustomize build ${dir} | cosi check -f -`,
  };
}

/**
 * The set-aside entry of a file a kustomization names as a patch or configuration, or names as a
 * patch in a comment only (`commented`).
 */
export function kustomizeInput(file: string, by: string, commented = false): UnrenderedSource {
  return {
    path: file,
    kind: 'kustomize-input',
    file,
    message: commented
      ? `a patch that ${by} names in a comment (commented out, as kubebuilder leaves a feature's patches), not a whole resource; name the file to check it as one`
      : `a patch or configuration file that ${by} names, not a whole resource`,
  };
}

/** The set-aside entry of a chainsaw test file (as shown). */
export function chainsawTest(file: string): UnrenderedSource {
  return {
    path: file,
    kind: 'chainsaw-test',
    file,
    message:
      `a chainsaw test, not a resource: the files it applies are read, those it asserts or ` +
      `patches with are partial objects, set aside; run it with chainsaw test ${path.dirname(file)}`,
  };
}

/**
 * The set-aside entry of a file of an end-to-end test's partial objects: one the chainsaw test
 * `by.test` reads for an assertion, a patch or a deletion, or (without `by`) an assertion named
 * as kuttl and chainsaw name them.
 */
export function testAssertion(
  file: string,
  by?: { readonly test: string; readonly operation: string },
): UnrenderedSource {
  return {
    path: file,
    kind: 'test-assertion',
    file,
    message:
      by === undefined
        ? `a test assertion by kuttl's and chainsaw's naming (<step>-assert.yaml, <step>-errors.yaml): partial objects a test matches, not resources; name the file to check it as manifests`
        : `a file ${by.test} ${by.operation}; name the file to check it as manifests`,
  };
}

/**
 * The set-aside entry of a JSON file met in a directory that holds no manifest: a repository's
 * `package.json`, `tsconfig.json` or vendored JSON Schemas (see {@link isJsonManifest}).
 */
export function jsonFile(file: string): UnrenderedSource {
  return {
    path: file,
    kind: 'json-file',
    file,
    message: `JSON without a top-level apiVersion or kind, so not a manifest; name the file to check it as one`,
  };
}

/**
 * The set-aside entry of a file met in a directory that another tool reads by its name
 * ({@link toolFileOf}): `what` it is.
 */
export function toolFile(file: string, what: string): UnrenderedSource {
  return {
    path: file,
    kind: 'tool-file',
    file,
    message: `by its file name, ${what}, not a manifest; name the file to check it as one`,
  };
}

/**
 * The directory Go's tools skip by its name: a package's test inputs and golden outputs, which
 * hold manifests broken on purpose (`invalid.yaml`), partial ones and copies of the real ones.
 */
export const GO_TEST_DATA_DIRECTORY = 'testdata';

/** The set-aside entry of a Go package's `testdata/` directory met while walking (as shown). */
export function goTestData(dir: string): UnrenderedSource {
  return {
    path: dir,
    kind: 'go-test-data',
    file: dir,
    message: `a Go package's test data, which Go's tools skip by its name; name the directory to check it`,
  };
}

/**
 * The set-aside entry of a hidden directory (as shown) that walks skip though it holds
 * Kubernetes objects: the YAML files (`files`, names in it) whose first document is one.
 */
export function hiddenDirectory(dir: string, files: readonly string[]): UnrenderedSource {
  const SHOWN = 3;
  const shown = files.slice(0, SHOWN).join(', ');
  const more = files.length > SHOWN ? ` and ${String(files.length - SHOWN)} more` : '';
  return {
    path: dir,
    kind: 'hidden-directory',
    file: dir,
    message: `a hidden directory, which directory walks skip, holding Kubernetes objects (${shown}${more}); name it to check it: cosi check ${dir}`,
  };
}

/** A JSON file's name, read in a directory (as kubectl and kubeconform read them). */
export const JSON_FILE = /\.json$/i;

/** A YAML file's name, read in a directory. */
export const YAML_FILE = /\.ya?ml$/i;

/**
 * An `apiVersion` or `kind` key, where a text that is not strict JSON may have one: quoted as JSON
 * quotes it, or, where a key begins (after `{`, `,` or at a line's start), unquoted or in single
 * quotes, as a YAML flow mapping writes it (`{apiVersion: apps/v1, kind: Deployment}`), which
 * kubectl refuses in a `.json` file. The spaces before such a key stop at a line's end (the next
 * line's start is where the key is then looked for): spaces that ran across lines would be read
 * again from each line's start, in quadratic time over a file of blank lines.
 */
const MANIFEST_KEY =
  /"(?:apiVersion|kind)"\s*:|(?:^|[{,])[^\S\n\r\u2028\u2029]*('?)(?:apiVersion|kind)\1\s*:/m;

/**
 * Whether a JSON file met in a directory is read as a manifest: an object with an `apiVersion`
 * or `kind` of its own (a `List` is one), or a cosi document (`metadata.type`), or an array
 * holding a Kubernetes object (kubectl refuses it, as cosi does), or a stream of objects one
 * after another (`jq -c`, as kubectl reads them) one of which is a manifest. A text that is not
 * strict JSON (a comment, a trailing comma, a mistake) is read when it may be one, so that its
 * mistakes are reported.
 */
export function isJsonManifest(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const objects = jsonStreamObjects(text);
    if (objects === undefined) return MANIFEST_KEY.test(text);
    return objects.some(([start, end]) => isJsonManifest(text.slice(start, end)));
  }
  // An array holding a Kubernetes object (a string apiVersion and kind): meant as manifests,
  // which kubectl refuses (one object a document): read, so that this is said, not set aside.
  if (Array.isArray(value)) return value.some(isKubernetesObjectValue);
  if (typeof value !== 'object' || value === null) return false;
  if (Object.hasOwn(value, 'apiVersion') || Object.hasOwn(value, 'kind')) return true;
  // A cosi document: `metadata.type` names its type.
  const metadata = (value as { metadata?: unknown }).metadata;
  return (
    typeof metadata === 'object' &&
    metadata !== null &&
    typeof (metadata as { type?: unknown }).type === 'string'
  );
}

/** Whether a value has a string `apiVersion` and `kind`, as a Kubernetes object has. */
function isKubernetesObjectValue(value: unknown): boolean {
  return isRecord(value) && typeof value.apiVersion === 'string' && typeof value.kind === 'string';
}

/**
 * Whether what the file at `file` is depends on its content, not its name alone: a JSON file (a
 * manifest or other JSON), a kustomization and another tool's file (each a manifest when it holds
 * a Kubernetes object of another kind). A change of its content is a change of the walk's.
 */
export function isDecidedByContent(file: string): boolean {
  const name = path.basename(file);
  return (
    JSON_FILE.test(name) ||
    isKustomizationFile(name) ||
    toolFileOf(name, path.basename(path.dirname(file))) !== undefined
  );
}

/** Keys of a kustomization whose entries are a path, or an object with a `path`. */
const PATH_KEYS = ['patches', 'patchesStrategicMerge', 'patchesJson6902', 'replacements'];
/** Keys of a kustomization whose entries are paths of configurations. */
const CONFIGURATION_KEYS = ['configurations', 'transformers', 'generators', 'validators'];
/** Keys of a kustomization whose entries are generators with `files`, `envs` and `env`. */
const GENERATOR_KEYS = ['configMapGenerator', 'secretGenerator'];
/** The keys of a kustomization that name files other than resources. */
const INPUT_KEYS = [...PATH_KEYS, ...CONFIGURATION_KEYS, ...GENERATOR_KEYS, 'openapi'];

/** Whether a text may have one of {@link INPUT_KEYS} (as a key, at any indentation or quoted). */
const NAMES_INPUTS = new RegExp(`(?:^|[\\s{,])["']?(?:${INPUT_KEYS.join('|')})["']?\\s*:`, 'm');

/** Whether a text may have a `resources` key (as a key, at any indentation or quoted). */
const NAMES_RESOURCES = /(?:^|[\s{,])["']?resources["']?\s*:/m;

/** What {@link kustomizationInputs} found in a kustomization. */
export interface KustomizationInputs {
  /** Absolute paths of the files it names that are not resources (patches, configurations...). */
  readonly files: readonly string[];
  /**
   * Absolute paths of its `resources` entries (files or directories): what it renders as
   * resources, which no kustomization's patch line, live or commented out, sets aside.
   */
  readonly resources: readonly string[];
  /**
   * Absolute paths of the patches it names in comments only (`#- path: patches/webhook.yaml`),
   * as kubebuilder's scaffold leaves those a feature would enable.
   */
  readonly commented: readonly string[];
  /** A YAML error that kept it from being read (its inputs are then unknown). */
  readonly finding?: Finding;
}

/**
 * The files a kustomization names that kustomize reads as something other than a resource:
 * patches (`patches`, `patchesStrategicMerge`, `patchesJson6902`), `replacements`,
 * `configurations`, transformer, generator and validator configurations, `openapi`, and the
 * files of config map and secret generators. `resources`, `crds` and `components` are not
 * among them: those are resources, or directories with kustomizations of their own. `file` is
 * as shown (for a finding), `absolute` where it is.
 */
export function kustomizationInputs(
  text: string,
  file: string,
  absolute: string,
): KustomizationInputs {
  const dir = path.dirname(absolute);
  const commented = commentedPatches(text).map((name) => path.resolve(dir, name));
  const namesInputs = NAMES_INPUTS.test(text);
  // A kustomization that names no resources and nothing but resources is not parsed.
  if (!namesInputs && !NAMES_RESOURCES.test(text)) return { files: [], resources: [], commented };
  let document: unknown;
  try {
    // No custom tags, the default bound on aliases: what is read here is only ever paths.
    document = parse(text, { uniqueKeys: false, maxAliasCount: 100, logLevel: 'error' });
  } catch (error) {
    if (!(error instanceof YAMLParseError)) throw error;
    // One that lists resources only is kustomize's to report, as before it was read for them.
    if (!namesInputs) return { files: [], resources: [], commented };
    const [line, col] = error.linePos?.[0] ? [error.linePos[0].line, error.linePos[0].col] : [0, 0];
    const message = `${file} is not valid YAML: ${error.message.split('\n')[0] ?? ''}`;
    return {
      files: [],
      resources: [],
      commented,
      finding: createFinding({ code: 'yaml-syntax', message, file, line, col, pointer: '' }),
    };
  }
  if (!isRecord(document)) return { files: [], resources: [], commented };
  const resources: string[] = [];
  forEach(document.resources, (entry) => {
    if (typeof entry === 'string' && entry !== '' && !entry.includes('\n')) {
      resources.push(path.resolve(dir, entry));
    }
  });
  if (!namesInputs) return { files: [], resources, commented };
  const names: string[] = [];
  const addString = (value: unknown): void => {
    // An entry may be inline YAML rather than a path: a path is one line.
    if (typeof value === 'string' && value !== '' && !value.includes('\n')) names.push(value);
  };
  const addPathOf = (value: unknown): void => {
    if (typeof value === 'string') addString(value);
    else if (isRecord(value)) addString(value.path);
  };
  for (const key of PATH_KEYS) {
    forEach(document[key], addPathOf);
  }
  for (const key of CONFIGURATION_KEYS) {
    forEach(document[key], addString);
  }
  addPathOf(document.openapi);
  for (const key of GENERATOR_KEYS) {
    forEach(document[key], (generator) => {
      if (!isRecord(generator)) return;
      // `files` entries may name their key: `key=path`.
      forEach(generator.files, (entry) =>
        addString(typeof entry === 'string' ? entry.slice(entry.indexOf('=') + 1) : entry),
      );
      forEach(generator.envs, addString);
      addString(generator.env);
    });
  }
  return { files: names.map((name) => path.resolve(dir, name)), resources, commented };
}

/**
 * A top-level key, live (`patches:`) or commented out alone on its line, `#` and at most one
 * space before it (`#patchesStrategicMerge:`): `#  target:` is a commented entry's.
 */
const SECTION_KEY = /^(?:#+ ?([A-Za-z]\w*)[ \t]*:[ \t]*$|([A-Za-z]\w*|"[^"]*"|'[^']*')[ \t]*:)/;

/**
 * A list entry commented out, naming a file (`#- patch.yaml`, `# - path: p.yaml`), or the
 * `path` of a commented entry's later line (`#  path: p.yaml`).
 */
const COMMENTED_ENTRY =
  /^[ \t]*#+[ \t]*(?:-[ \t]+)?(?:path[ \t]*:[ \t]*)?(["']?)([^\s"'#]+\.(?:ya?ml|json))\1[ \t]*(?:#.*)?$/i;

/**
 * The files a kustomization's comments name as patches: entries commented out below a patch key
 * (`patches`, `patchesStrategicMerge`, `patchesJson6902`), itself live or commented out.
 * kubebuilder's scaffold leaves the patches of the features one enables by hand so
 * (`#- path: patches/webhook_in_clusters.yaml`), and keeps their files beside it: partial
 * objects all the same. A commented-out resource is none of these.
 */
function commentedPatches(text: string): string[] {
  if (!text.includes('#')) return [];
  const names: string[] = [];
  let section: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const key = SECTION_KEY.exec(line);
    if (key) {
      section = (key[1] ?? key[2] ?? '').replace(/^["']|["']$/g, '');
      continue;
    }
    if (section === undefined || !PATCH_KEYS.has(section)) continue;
    const entry = COMMENTED_ENTRY.exec(line);
    if (entry?.[2] !== undefined) names.push(entry[2]);
  }
  return names;
}

/** The keys of a kustomization whose entries are patches. */
const PATCH_KEYS: ReadonlySet<string> = new Set([
  'patches',
  'patchesStrategicMerge',
  'patchesJson6902',
]);

/**
 * The chainsaw operations whose files hold partial objects, each as a sentence says what the
 * test does with the file: an assertion or an expected error is matched against the cluster,
 * a patch merged into what is there, a deletion names what to delete.
 */
const PARTIAL_OPERATIONS: Readonly<Record<string, string>> = {
  assert: 'asserts: partial objects, not resources',
  error: 'expects errors from: partial objects, not resources',
  patch: 'patches with: partial objects, not resources',
  delete: 'deletes: partial objects, not resources',
};

/** The chainsaw operations whose files are whole resources, sent to the API server. */
const WHOLE_OPERATIONS = new Set(['apply', 'create', 'update']);

/** A file a chainsaw test names: its path (absolute) or glob, and what the test does with it. */
export interface ChainsawTestFile {
  /** The absolute path, or an absolute glob pattern (`*-assert.yaml`), which chainsaw takes. */
  readonly file: string;
  readonly glob: boolean;
  /**
   * What the test does with it and why that is no resource to check, as a sentence says it
   * (`asserts: partial objects, not resources`), or `undefined` for a file it applies, creates or
   * updates: whole resources.
   */
  readonly partial: string | undefined;
  /** Whether the test asserts it: its objects are in the cluster by then, whoever made them. */
  readonly asserts: boolean;
}

/** What the walk takes of a chainsaw test: the files it names, and its own namespace. */
export interface ChainsawTest {
  /**
   * The files it names: the `file` of every operation, in any step and any of its blocks (`try`,
   * `catch`, `finally`, `cleanup`), in each of the file's documents. Those of an `assert`,
   * `error`, `patch` or `delete` hold partial objects, and those it applies, creates or updates
   * expecting an error are meant to be refused: both are `partial`. The others it applies,
   * creates or updates are whole resources.
   */
  readonly files: readonly ChainsawTestFile[];
  /**
   * The namespace the test names (`spec.namespace`), in which it applies the namespaced objects
   * that name none; `undefined`: chainsaw makes one for the test (`chainsaw-<two words>`).
   */
  readonly namespace: string | undefined;
  /** Whether chainsaw evaluates the expressions of the files it applies (`spec.template`). */
  readonly templates: boolean;
}

/**
 * A chainsaw test's files and the namespace it names. A test that is not YAML names none of
 * either: chainsaw reports it.
 */
export function readChainsawTest(text: string, absolute: string): ChainsawTest {
  const named: { name: string; partial: string | undefined; asserts: boolean }[] = [];
  let namespace: string | undefined;
  let templates = true;
  const visit = (value: unknown, depth: number): void => {
    if (depth > 64) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    if (!isRecord(value)) return;
    for (const [key, child] of Object.entries(value)) {
      const partial = Object.hasOwn(PARTIAL_OPERATIONS, key)
        ? PARTIAL_OPERATIONS[key]
        : WHOLE_OPERATIONS.has(key) && isRecord(child) && expectsError(child.expect)
          ? `${key === 'apply' ? 'applies' : `${key}s`} expecting the API server to refuse it: invalid on purpose`
          : undefined;
      if ((partial !== undefined || WHOLE_OPERATIONS.has(key)) && isRecord(child)) {
        const name = child.file;
        if (typeof name === 'string' && name !== '' && !name.includes('\n')) {
          named.push({ name, partial, asserts: key === 'assert' });
        }
      } else {
        visit(child, depth + 1);
      }
    }
  };
  try {
    for (const document of parseAllDocuments(text, { uniqueKeys: false, logLevel: 'error' })) {
      if (document.errors.length > 0) continue;
      const test: unknown = document.toJS({ maxAliasCount: 100 });
      visit(test, 0);
      const spec = isRecord(test) ? test.spec : undefined;
      if (isRecord(spec) && typeof spec.namespace === 'string' && spec.namespace !== '') {
        namespace ??= spec.namespace;
      }
      if (isRecord(spec) && spec.template === false) templates = false;
    }
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    return { files: [], namespace: undefined, templates: true };
  }
  const dir = path.dirname(absolute);
  const files = named
    // chainsaw reads a URL too; only files of the repository are set aside.
    .filter(({ name }) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(name))
    .map(({ name, partial, asserts }) => ({
      file: path.resolve(dir, name),
      glob: GLOB_CHARACTERS.test(name),
      partial,
      asserts,
    }));
  return { files, namespace, templates };
}

/**
 * The objects a test's assertion file names, as `Kind/name` (see `AppliedBy.existing`): each
 * document's `kind` and `metadata.name` where both are plain strings, and `Kind/*` for one that
 * matches objects of its kind by their labels, whatever their names. An assertion that is not
 * YAML names none.
 */
export function assertedObjects(text: string): string[] {
  const objects: string[] = [];
  try {
    for (const document of parseAllDocuments(text, { uniqueKeys: false, logLevel: 'error' })) {
      if (document.errors.length > 0) continue;
      const value: unknown = document.toJS({ maxAliasCount: 100 });
      if (!isRecord(value) || typeof value.kind !== 'string') continue;
      const metadata = value.metadata;
      if (isRecord(metadata) && typeof metadata.name === 'string') {
        objects.push(`${value.kind}/${metadata.name}`);
      } else if (!isRecord(metadata) || metadata.name === undefined) {
        objects.push(`${value.kind}/*`);
      }
    }
  } catch (error) {
    if (!(error instanceof Error)) throw error;
  }
  return objects;
}

/**
 * Whether an operation's `expect` checks that it fails: `($error != null): true`, or
 * `($error): <the message>` (chainsaw's JMESPath over the operation's outcome).
 */
function expectsError(expect: unknown): boolean {
  if (!Array.isArray(expect)) return false;
  return expect.some(
    (entry) =>
      isRecord(entry) &&
      isRecord(entry.check) &&
      Object.entries(entry.check).some(
        ([key, value]) =>
          (/^\(\s*\$error\s*!=\s*null\s*\)$/.test(key) && value === true) ||
          (/^\(\s*\$error\s*\)$/.test(key) && value !== null),
      ),
  );
}

const GLOB_CHARACTERS = /[*?[\]{}]/;

function forEach(list: unknown, visit: (value: unknown) => void): void {
  if (Array.isArray(list)) for (const value of list) visit(value);
}
