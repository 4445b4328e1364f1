import * as path from 'node:path';
import { errorChain, type ErrorLocator } from '../engine/runtime/error-record.js';
import type { LoadedConfig } from '../loaders/load-config.js';
import { errorFrameInProject } from '../loaders/stack-frames.js';
import { displayPath } from './display-path.js';

/**
 * Where a controller's error was thrown in the project's own code (beside its config): the first
 * project frame of the error or of what it wraps. A queue controller's error is the one its
 * reconcile threw; a transform's is the pass's aggregate, whose own stack is in cosi, so the
 * place is found in the errors it collected (and their causes: the function's own throw).
 * `undefined` without a config: there is no project code to point at.
 */
export function projectErrorLocator(
  config: LoadedConfig | undefined,
  cwd: string,
): ErrorLocator | undefined {
  if (config === undefined) return undefined;
  const dir = path.dirname(config.file);
  return (error) => {
    for (const e of errorChain(error)) {
      const frame = errorFrameInProject(e, dir);
      if (frame) return { file: displayPath(cwd, frame.file), line: frame.line, col: frame.col };
    }
    return undefined;
  };
}
