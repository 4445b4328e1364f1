import * as path from 'node:path';

/**
 * What a report is titled by: the paths it checked as given (`fixtures/vm-network`), but a path
 * that names no directory of its own (`.`, `..`, `./`) by the directory it resolves to, and with
 * no path, the working directory's name. `cosi report -f .` was titled `cosi report: .`, the same
 * for every project.
 */
export function reportTitle(given: readonly string[], cwd: string): string {
  if (given.length === 0) return directoryName(cwd);
  return given.map((p) => titleOf(p, cwd)).join(' ');
}

function titleOf(given: string, cwd: string): string {
  const normal = path.normalize(given);
  const named = normal.split(/[\\/]/).some((part) => part !== '' && part !== '.' && part !== '..');
  if (!named) return directoryName(path.resolve(cwd, given));
  // `manifests/` and `manifests` are one directory.
  return normal.length > 1 ? normal.replace(/[\\/]+$/, '') : normal;
}

function directoryName(dir: string): string {
  return path.basename(dir) || dir;
}
