import * as path from 'node:path';
import { errorChain, type ErrorLocator } from '../engine/runtime/error-record.js';
import { messageOfThrown } from '../engine/thrown-value.js';
import type { LoadedConfig } from '../loaders/load-config.js';
import { localImportHint, mayBeUndefinedImport } from '../loaders/local-import-hints.js';
import { errorFrameInProject } from '../loaders/stack-frames.js';
import { displayPath } from './display-path.js';

/**
 * Where a controller's error was thrown in the project's own code (beside its config): the first
 * project frame of the error or of what it wraps. A queue controller's error is the one its
 * reconcile threw; a transform's is the pass's aggregate, whose own stack is in cosi, so the
 * place is found in the errors it collected (and their causes: the function's own throw).
 * `undefined` without a config: there is no project code to point at.
 *
 * An error of an undefined value (`Cannot read properties of undefined`, `... is not a function`)
 * thrown in a module that imports a name one of the project's modules does not export (`import {
 * APP } from '../types'`, used only in a reconcile) gets a hint naming that import: Node would
 * have refused the import, the config's loader gave the name as undefined (see
 * `loaders/local-import-hints.ts`), as it says for a config that fails as it loads.
 */
export function projectErrorLocator(
  config: LoadedConfig | undefined,
  cwd: string,
): ErrorLocator | undefined {
  if (config === undefined) return undefined;
  const dir = path.dirname(config.file);
  // The files cosi's loader ran keep the places V8 recorded; others (a config object's, in a test
  // file the test runner transformed) get the places the runner's source maps give them.
  const ran = new Set(
    isConfigFile(config.file) ? (config.sources ?? [config.file]).map((f) => path.resolve(f)) : [],
  );
  const ranByLoader = (file: string): boolean => ran.has(path.resolve(file));
  return (error) => {
    for (const e of errorChain(error)) {
      const frame = errorFrameInProject(e, dir, ranByLoader);
      if (!frame) continue;
      const location = { file: displayPath(cwd, frame.file), line: frame.line, col: frame.col };
      const hint = mayBeUndefinedImport(messageOfThrown(e))
        ? localImportHint([frame.file], path.resolve(cwd))
        : '';
      return hint === '' ? location : { ...location, hint };
    }
    return undefined;
  };
}

/** Whether a loaded config's `file` names a file (a config object's is a name in brackets). */
function isConfigFile(file: string): boolean {
  return !file.startsWith('<');
}
