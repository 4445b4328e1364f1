/**
 * The Helm charts the walk meets: whether a directory's `Chart.yaml` makes it one, and what
 * else at its root a reader may have meant as manifests (said with the chart set aside).
 */

import type { ManifestDirEntry, ManifestFileSystem } from './manifest-file-system.js';
import { objectHeadOf } from './object-head.js';
import { YAML_FILE } from './unrendered-sources.js';

/**
 * The directories of a Helm chart that are Helm's: what it renders (`templates/`), its
 * subcharts, its CRDs (read), and chart-testing's values files (`ci/`).
 */
const HELM_OWN_DIRECTORIES = new Set(['templates', 'charts', 'crds', 'ci']);
/** The YAML files at a chart's root that Helm reads itself: `Chart.yaml`, values, requirements. */
const HELM_OWN_FILE = /^(?:Chart|requirements|values(?:[-._].*)?)\.ya?ml$/i;

/**
 * Whether the `Chart.yaml` at `absolute` makes its directory a Helm chart: not when it holds a
 * Kubernetes object (a top-level `apiVersion` and `kind`; Helm's has no `kind`), nor when it is
 * no regular file (a FIFO, whose read blocked the walk for ever): its directory is then walked
 * as any other, and the walk reports it as any manifest that is no regular file. One that
 * cannot be read is taken for what its name says.
 */
export async function isHelmChartFile(fs: ManifestFileSystem, absolute: string): Promise<boolean> {
  try {
    if (!(await fs.stat(absolute)).isFile()) return false;
    return objectHeadOf(await fs.readFile(absolute)) === undefined;
  } catch {
    return true;
  }
}

/**
 * The entries of a chart's directory (sorted) that are not Helm's own: its other directories
 * (`docs/`) and YAML files, which the walk does not read either.
 */
export function chartOthers(sorted: readonly ManifestDirEntry[]): string[] {
  return sorted
    .filter((entry) => !entry.name.startsWith('.'))
    .flatMap((entry) =>
      entry.isDirectory()
        ? HELM_OWN_DIRECTORIES.has(entry.name)
          ? []
          : [`${entry.name}/`]
        : YAML_FILE.test(entry.name) && !HELM_OWN_FILE.test(entry.name)
          ? [entry.name]
          : [],
    );
}
