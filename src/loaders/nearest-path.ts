import * as path from 'node:path';
import { didYouMean } from '../engine/did-you-mean.js';
import type { ManifestFileSystem } from './manifest-file-system.js';

/**
 * The path a missing one was likely meant to be: `given` with its last name replaced by the
 * closest name of its directory (`-f manifest` beside `manifests/`: `manifests`), as written
 * (a trailing slash kept); `undefined` when no name is close or the directory cannot be read.
 *
 * @example
 * await nearestPath(fs, '/p', 'manifests/app.yaml') // 'manifests/apps.yaml', with apps.yaml there
 */
export async function nearestPath(
  fs: ManifestFileSystem,
  cwd: string,
  given: string,
): Promise<string | undefined> {
  const trimmed = given.replace(/\/+$/, '');
  const name = path.basename(trimmed);
  if (name === '' || name === '.' || name === '..') return undefined;
  const prefix = trimmed.slice(0, trimmed.length - name.length);
  let names: string[];
  try {
    names = (await fs.readdir(path.resolve(cwd, prefix === '' ? '.' : prefix))).map((e) => e.name);
  } catch {
    return undefined;
  }
  const near = didYouMean(name, names);
  if (near === undefined || near === name) return undefined;
  return `${prefix}${near}${trimmed.length < given.length ? '/' : ''}`;
}
