import { readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { compareStrings } from '../../engine/compare-strings.js';

/** What a scenario file is named: `*.cosi-test.yaml` (or `.yml`). */
export const SCENARIO_FILE = /\.cosi-test\.ya?ml$/i;

/** Scenario files found, and the given paths that do not exist. */
export interface FoundScenarioFiles {
  /** Absolute paths, sorted. */
  readonly files: readonly string[];
  /** Paths as given. */
  readonly missing: readonly string[];
}

/**
 * The scenario files below `paths` (default: the working directory): a file given by name is
 * taken whatever its name; directories are searched for `*.cosi-test.yaml`, skipping hidden
 * entries and `node_modules`.
 */
export async function findScenarioFiles(
  paths: readonly string[],
  cwd: string,
): Promise<FoundScenarioFiles> {
  const files = new Set<string>();
  const missing: string[] = [];
  for (const given of paths.length === 0 ? ['.'] : paths) {
    const full = path.resolve(cwd, given);
    const info = await stat(full).catch(() => undefined);
    if (info === undefined) missing.push(given);
    else if (info.isDirectory()) for (const f of await walk(full)) files.add(f);
    else files.add(full);
  }
  return { files: [...files].sort(compareStrings), missing };
}

async function walk(dir: string): Promise<string[]> {
  const found: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await walk(full)));
    else if (entry.isFile() && SCENARIO_FILE.test(entry.name)) found.push(full);
  }
  return found;
}
