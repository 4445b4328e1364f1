import { displayPath } from '../../app/display-path.js';
import { TypeResolutionError } from '../../engine/resource/definition-registry.js';
import { ManifestError } from '../manifest-input.js';
import { NOT_A_MANIFEST } from '../test-project.js';

/** Manifest findings that say the step's input is not there, not that the manifests are wrong. */
const MISSING_INPUT = new Set(['path-not-found', 'unreadable-file']);

/**
 * Why a step could not be carried out as written, or `undefined` when what it threw is something
 * else: a path that does not exist, a type no definition has, an edit or a destroy of an id that
 * is no manifest. Such a step tests nothing, so its scenario is invalid (exit 2), and it is never
 * the refusal an `expect-error` step waits for: a renamed fixture or a misspelt id would pass.
 */
export function stepInputProblem(error: unknown, cwd: string): string | undefined {
  if (error instanceof ManifestError) {
    const missing = error.findings.filter(
      (f) => f.severity === 'error' && MISSING_INPUT.has(f.code),
    );
    if (missing.length === 0) return undefined;
    return missing
      .map((f) => (f.file ? f.message.replaceAll(f.file, displayPath(cwd, f.file)) : f.message))
      .join('; ');
  }
  if (error instanceof TypeResolutionError) return error.message;
  if (error instanceof Error && (error as { code?: unknown }).code === NOT_A_MANIFEST) {
    return error.message;
  }
  return undefined;
}

/** Whether a step's error is a refusal of the change by the project: its manifests' findings. */
export function isRefusal(error: unknown): error is ManifestError {
  return error instanceof ManifestError && stepInputProblem(error, '') === undefined;
}
