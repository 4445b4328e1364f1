/**
 * Sources of manifests that are not manifests themselves until a tool renders them: a Helm
 * chart's templates and values, kustomize's `kustomization.yaml` and the patches and
 * configuration files it names. A manifest repository holds them beside plain manifests; read
 * as manifests they make a page of errors about `{{ .Values }}` and `patchesStrategicMerge`
 * that says nothing useful. The directory walk (`walk-manifest-tree.ts`) sets them aside and
 * says so, with how to check what they render; a file named on the command line is read
 * whatever it is. With them, a JSON file the walk met that is no manifest at all (a
 * `package.json`, see `json-manifests.ts`): JSON files are read in directories, as kubectl and
 * kubeconform read them; other tools' files (`tool-files.ts`); and the end-to-end tests' partial
 * objects (`chainsaw-tests.ts`).
 *
 * This module makes the set-aside entries, each with the sentence a report says of it; how they
 * are named and counted is `unrendered-counts.ts`, what a kustomization names
 * `kustomization-inputs.ts`.
 *
 * A name decides alone only what its content cannot contradict: a file named as a kustomization
 * or as another tool's that holds a Kubernetes object of another kind is read as a manifest
 * (see `object-head.ts`).
 */
import * as path from 'node:path';
import { isKustomizationFile } from './kustomization-inputs.js';
import { toolFileOf } from './tool-files.js';
import type { UnrenderedSource } from './unrendered-source.js';

/** The file that makes a directory a Helm chart. */
export const HELM_CHART_FILE = 'Chart.yaml';

/** The directory of a chart whose files Helm installs as they are (no templating): read. */
export const HELM_CRDS_DIRECTORY = 'crds';

/** The directory of a chart's subcharts, each a chart (walked for their `crds/`). */
export const HELM_SUBCHARTS_DIRECTORY = 'charts';

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

/**
 * The set-aside entry of a directory met while walking (as shown) that holds a config of its own
 * (`config`, its name): a project of its own, whose manifests this run's config (or none) would
 * check without its definitions and controllers.
 */
export function nestedProject(dir: string, config: string): UnrenderedSource {
  return {
    path: dir,
    kind: 'nested-project',
    file: path.join(dir, config),
    message: `a project with a config of its own (${path.join(dir, config)}), not walked: its manifests are checked with its config, not this run's; check it with cosi check ${dir} (or beside the others with --each, each path with its own config), or walk it with the one config --config names`,
  };
}

/** A JSON file's name, read in a directory (as kubectl and kubeconform read them). */
export const JSON_FILE = /\.json$/i;

/** A YAML file's name, read in a directory. */
export const YAML_FILE = /\.ya?ml$/i;

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
