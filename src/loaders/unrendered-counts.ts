/** How the sources set aside unrendered are named and counted in a report. */
import type { UnrenderedKind, UnrenderedSource } from './unrendered-source.js';

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
  'nested-project': ['project with a config of its own', 'projects with configs of their own'],
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
