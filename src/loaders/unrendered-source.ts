/** Why a path was set aside. */
export type UnrenderedKind =
  | 'helm-chart'
  | 'kustomization'
  | 'kustomize-input'
  | 'json-file'
  | 'tool-file'
  | 'go-test-data'
  | 'hidden-directory'
  | 'nested-project'
  | 'chainsaw-test'
  | 'policy-test'
  | 'test-assertion';

/** A chart, a kustomization or a file a kustomization uses: not read as manifests. */
export interface UnrenderedSource {
  /** As paths are shown: a chart's directory, else the file. */
  readonly path: string;
  readonly kind: UnrenderedKind;
  /** The file a report points at: the chart's `Chart.yaml`, else the file itself. */
  readonly file: string;
  /** One line: what it is, and how to check what it renders. */
  readonly message: string;
}
