/**
 * The Kubernetes releases whose built-in kinds cosi knows (`kubernetes-openapi/` at the package
 * root holds one document per release), and how a user names one (`--kubernetes-version`).
 */

/** The releases cosi has the built-in kinds of, oldest first. */
export const KUBERNETES_RELEASES = [
  '1.28',
  '1.29',
  '1.30',
  '1.31',
  '1.32',
  '1.33',
  '1.34',
  '1.35',
  '1.36',
] as const;

/** A release cosi knows: `1.36`. */
export type KubernetesRelease = (typeof KUBERNETES_RELEASES)[number];

/** Whether `release` is `first` or a later one. */
export function releaseAtLeast(release: KubernetesRelease, first: KubernetesRelease): boolean {
  return KUBERNETES_RELEASES.indexOf(release) >= KUBERNETES_RELEASES.indexOf(first);
}

/** The minor of a release: `31` for `1.31`. */
export function releaseMinor(release: KubernetesRelease): number {
  return Number(release.slice('1.'.length));
}

/** The newest stable release cosi has: the default of `--kubernetes-version`. */
export const DEFAULT_KUBERNETES_RELEASE: KubernetesRelease = '1.36';

/** Thrown for a `--kubernetes-version` cosi does not have. */
export class KubernetesReleaseError extends Error {
  readonly code = 'unknown-kubernetes-version';
  constructor(readonly given: string) {
    super(
      `unknown Kubernetes version ${JSON.stringify(given)}: cosi has the built-in kinds of ${KUBERNETES_RELEASES.join(', ')}`,
    );
    this.name = 'KubernetesReleaseError';
  }
}

/**
 * The release a user's version names: `1.30`, `v1.30` and `1.30.4` are all `1.30` (a patch
 * release changes no API); `master`, kubeconform's default (the newest schemas), is the newest
 * release cosi has, as leaving the flag out is.
 *
 * @throws KubernetesReleaseError for a version cosi does not have.
 */
export function parseKubernetesRelease(given: string): KubernetesRelease {
  if (given.trim() === 'master') return DEFAULT_KUBERNETES_RELEASE;
  const match = /^v?(1\.\d+)(\.\d+)?$/.exec(given.trim());
  const release = KUBERNETES_RELEASES.find((r) => r === match?.[1]);
  if (release === undefined) throw new KubernetesReleaseError(given);
  return release;
}
