import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { CONFIG_FILE_NAMES } from '../loaders/load-config.js';

/** Directories no project's config is looked for in. */
const NOT_PROJECTS = new Set(['node_modules']);

/**
 * What a command that found no config should know of one close by: a config in a subdirectory
 * of `cwd` (found only from there: config discovery looks next to the manifests and up, never
 * down), and a file of `cwd` named nearly as a config (`cosi.conf.ts`), which is never read.
 * `''` when there is neither. Read only when a command stops for want of a project.
 *
 * @example
 * nearbyConfigHint('/repo') // with /repo/cosi/cosi.config.ts:
 * // ' (cosi/cosi.config.ts is a project\'s config: cd cosi, or pass --config cosi/cosi.config.ts)'
 */
export function nearbyConfigHint(cwd: string): string {
  let entries: { name: string; dir: boolean }[];
  try {
    entries = readdirSync(cwd, { withFileTypes: true }).map((e) => ({
      name: e.name,
      dir: e.isDirectory(),
    }));
  } catch {
    return '';
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const below: string[] = [];
  for (const { name, dir } of entries) {
    if (!dir || name.startsWith('.') || NOT_PROJECTS.has(name)) continue;
    const config = CONFIG_FILE_NAMES.find((file) => isFile(path.join(cwd, name, file)));
    if (config !== undefined) below.push(`${name}/${config}`);
  }
  const misnamed = entries
    .filter((e) => !e.dir && looksLikeAConfig(e.name) && !CONFIG_FILE_NAMES.includes(e.name))
    .map((e) => e.name);
  const said: string[] = [];
  const [first] = below;
  if (first !== undefined) {
    const more =
      below.length > 1
        ? ` (and ${below.slice(1, 3).join(', ')}${below.length > 3 ? ', ...' : ''})`
        : '';
    said.push(
      `${first} is a project's config${more}: cd ${path.dirname(first)}, or pass --config ${first}`,
    );
  }
  if (misnamed.length > 0) {
    said.push(
      `${misnamed.join(', ')} ${misnamed.length === 1 ? 'is' : 'are'} not read as a config: cosi reads ${CONFIG_FILE_NAMES.join(', ')}`,
    );
  }
  return said.length === 0 ? '' : ` (${said.join('; ')})`;
}

/** `cosi.conf.ts`, `cosi-config.ts`, `cosi.config.cts`: a script whose name starts as a config's. */
function looksLikeAConfig(name: string): boolean {
  return /^cosi[._-]?conf/i.test(name) && /\.[cm]?[jt]s$/i.test(name);
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
