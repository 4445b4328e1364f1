import { displayPath } from '../../app/display-path.js';
import { TypeResolutionError } from '../../engine/resource/definition-registry.js';
import { ExpressionKeyError } from '../chainsaw-expression.js';
import { ManifestError } from '../manifest-input.js';
import { DECLARED_CONTROLLER_CHANGED, NOT_A_MANIFEST } from '../test-project.js';

/** Manifest findings that say the step's input is not there, not that the manifests are wrong. */
const MISSING_INPUT = new Set(['path-not-found', 'unreadable-file']);

/**
 * Why a step could not be carried out as written, or `undefined` when what it threw is something
 * else: a path that does not exist, a type no definition has, an edit or a destroy of an id that
 * is no manifest, an RGD or transform the project did not start with (its controller cannot run), a
 * chainsaw expression key outside the subset cosi evaluates. Such a step tests nothing, so its scenario is invalid (exit 2), and it is never
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
  if (error instanceof TypeResolutionError || error instanceof ExpressionKeyError) {
    return error.message;
  }
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  if (code === NOT_A_MANIFEST || code === DECLARED_CONTROLLER_CHANGED) {
    return (error as Error).message;
  }
  return undefined;
}

/** Whether a step's error is a refusal of the change by the project: its manifests' findings. */
export function isRefusal(error: unknown): error is ManifestError {
  return error instanceof ManifestError && stepInputProblem(error, '') === undefined;
}
