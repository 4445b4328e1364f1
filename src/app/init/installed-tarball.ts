import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The tarball a cosi in a `node_modules` was installed from, as the package that holds that
 * `node_modules` records it: `"cosi": "file:../cosi-0.1.0.tgz"` in its `package.json`, relative
 * to that package. npx writes one too for `npx ./cosi-0.1.0.tgz` (its cache's
 * `_npx/<hash>/package.json`), so that `cosi init` can name the tarball to install rather than
 * a placeholder. `undefined` when cosi is in no `node_modules`, or came from anything but a
 * `.tgz` that is still there (a registry, a directory, a git URL).
 *
 * @example
 * installedTarball('/home/me/tools/node_modules/cosi') // '/home/me/dl/cosi-0.1.0.tgz'
 */
export function installedTarball(cosiRoot: string): string | undefined {
  const modules = path.dirname(path.resolve(cosiRoot));
  if (path.basename(modules) !== 'node_modules') return undefined;
  const owner = path.dirname(modules);
  const spec = cosiSpec(readText(path.join(owner, 'package.json')));
  if (spec === undefined || !spec.startsWith('file:')) return undefined;
  const file = path.resolve(owner, spec.slice('file:'.length));
  return /\.(?:tgz|tar\.gz)$/.test(file) && existsSync(file) ? file : undefined;
}

/** The version spec a package.json's text gives `cosi`, in any of its dependency lists. */
function cosiSpec(packageJson: string | undefined): string | undefined {
  if (packageJson === undefined) return undefined;
  try {
    const manifest = JSON.parse(packageJson) as Record<string, unknown>;
    for (const key of ['dependencies', 'devDependencies', 'optionalDependencies']) {
      const deps = manifest[key];
      if (typeof deps !== 'object' || deps === null) continue;
      const spec = (deps as Record<string, unknown>).cosi;
      if (typeof spec === 'string') return spec;
    }
  } catch {
    // Not JSON: nothing to read the tarball from.
  }
  return undefined;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
