/**
 * Go's `validateLocalDescendingPath` (k8s.io/kubernetes `pkg/apis/core/validation`), for paths
 * that must stay below a directory the node chooses: a volume mount's `subPath`, a localhost
 * seccomp profile (its field or its annotation); and `ValidateLocalNonReservedPath`, for the
 * files a volume writes (a ConfigMap's, a Secret's, a downward API item's `path`).
 */

/** Reports why `path` is no relative path without `..`, in the API server's words. */
export function localDescendingPathProblems(path: string, report: (message: string) => void): void {
  if (path.startsWith('/')) report('must be a relative path');
  if (path.split('/').includes('..')) report("must not contain '..'");
}

/**
 * Reports why `path` is no relative path without `..` that does not start with `..` either (the
 * kubelet's own `..data` links), in the API server's words.
 */
export function localNonReservedPathProblems(
  path: string,
  report: (message: string) => void,
): void {
  localDescendingPathProblems(path, report);
  // Not said again of a path the `..` element already made wrong.
  if (path.startsWith('..') && !path.startsWith('../')) report("must not start with '..'");
}
