import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

/** Where jiti (which loads configs) is installed, and its version. */
export interface JitiPackage {
  /** The package's directory (with its `package.json` and `dist/`). */
  readonly root: string;
  readonly version: string;
}

let found: JitiPackage | undefined;

/**
 * jiti's package, found once per thread as Node's `require` would find it from here: the first
 * `node_modules/jiti` on the lookup path. Not `require.resolve('jiti/package.json')`: resolving
 * through a package's `exports` loads the half of Node's ES module resolver that a CommonJS
 * start otherwise never loads (1-2 ms of every command that loads a config).
 *
 * @throws Error when jiti is not installed.
 */
export function jitiPackage(): JitiPackage {
  if (found !== undefined) return found;
  const require = createRequire(import.meta.url);
  for (const directory of require.resolve.paths('jiti') ?? []) {
    const root = path.join(directory, 'jiti');
    let text: string;
    try {
      text = readFileSync(path.join(root, 'package.json'), 'utf8');
    } catch {
      continue;
    }
    const { version } = JSON.parse(text) as { version?: unknown };
    if (typeof version !== 'string') continue;
    return (found = { root, version });
  }
  throw new Error('cannot find the jiti package (a dependency of cosi): reinstall cosi');
}
