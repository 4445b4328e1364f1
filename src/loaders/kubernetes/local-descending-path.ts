/**
 * Go's `validateLocalDescendingPath` (k8s.io/kubernetes `pkg/apis/core/validation`), for paths
 * that must stay below a directory the node chooses: a volume mount's `subPath`, a localhost
 * seccomp profile (its field or its annotation).
 */

/** Reports why `path` is no relative path without `..`, in the API server's words. */
export function localDescendingPathProblems(path: string, report: (message: string) => void): void {
  if (path.startsWith('/')) report('must be a relative path');
  if (path.split('/').includes('..')) report("must not contain '..'");
}
