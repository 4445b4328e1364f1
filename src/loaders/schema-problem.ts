/** One thing wrong with a value (or a schema), relative to the value checked. */
export interface SchemaProblem {
  /** JSON pointer inside the checked value: `/cpus`, or `` for the value itself. */
  readonly path: string;
  /** Whether `path` names a key that should not be there (the key is the offending node). */
  readonly part: 'key' | 'value';
  /** The JSON Schema keyword that failed (`type`, `required`, ...). */
  readonly keyword: string;
  readonly message: string;
  /**
   * For a problem found inside `allOf`, `anyOf`, `oneOf` or `not`: the node (JSON pointer inside
   * the checked value) that carries it, which ratcheting follows (`ratcheting.ts`).
   */
  readonly owner?: string;
  /**
   * A problem the API server only warns of (a built-in pod's repeated port or variable, which
   * only server-side apply refuses): reported as a `duplicate-list-item` warning.
   */
  readonly warning?: true;
  /**
   * A warning the API server returns as it takes the object (kubectl prints it as `Warning:`): a
   * deprecated node label, a fractional byte value (`pod-warnings.ts`); reported as an
   * `api-warning`.
   */
  readonly apiWarning?: true;
  /** Found by an admission webhook, not the API server: see `DocumentFindingOptions.admission`. */
  readonly admission?: true;
  /**
   * The problem in the API server's words, for a Kubernetes object checked whole
   * (`kubernetes/openapi-error-message.ts`): said instead of `message` there.
   */
  readonly apiServerMessage?: string;
  /**
   * Where the API server reports the problem when not at `path` (a JSON pointer inside the
   * checked value): a missing required field's own path, where `path` is its parent's.
   */
  readonly apiServerPath?: string;
}
