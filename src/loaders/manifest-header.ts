/**
 * What a manifest document says about itself, as far as it is valid. A missing or invalid field
 * is `undefined` here and reported.
 */
export interface ManifestHeader {
  readonly type?: string;
  readonly id?: string;
  readonly namespace?: string;
  /**
   * Set when the document names a namespace that is refused: it is in none, so it is no
   * duplicate of a resource of the default namespace.
   */
  readonly namespaceRefused?: true;
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  /**
   * `{}` when the document has no `spec`. For a Kubernetes-shaped document, its top-level fields
   * but `apiVersion`, `kind` and `metadata`.
   */
  readonly spec: unknown;
  /** Set for a Kubernetes-shaped document, whose type comes from its `apiVersion` and `kind`. */
  readonly kubernetes?: KubernetesHeader;
}

/** What a Kubernetes-shaped document says about its type. */
export interface KubernetesHeader {
  readonly apiVersion: string;
  /** Empty for the core group (`apiVersion: v1`). */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** The whole document, as its type's schema checks it. */
  readonly document: Readonly<Record<string, unknown>>;
}
