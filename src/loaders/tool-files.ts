/**
 * The YAML files other tools read by their name (a repository's CI, docs, packaging and
 * dependency files), which `cosi check .` meets beside the manifests, and what each is.
 */
import { objectHeadOf } from './object-head.js';

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
