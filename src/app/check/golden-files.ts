/**
 * Which files of a golden directory are cosi's: the ones `--update` wrote, listed in an index it
 * keeps beside them. `--update` removes only those it wrote before and no longer writes, and a
 * check compares only those; a `docker-compose.yml` or a hand-written file in the same directory
 * is never touched nor read.
 */

import { lstat, readdir, readFile, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { writeFileAtomically } from '../atomic-write.js';

/** The index of the golden files `--update` wrote: not YAML, so never read as a golden. */
export const GOLDEN_INDEX = '.cosi-goldens.json';

/** A name `--update` writes: a plain `<type>.yaml` in the directory itself. */
function isGoldenName(name: string): boolean {
  return /^[^/\\]+\.yaml$/.test(name) && !name.startsWith('.');
}

/**
 * The golden files written before that are not written now, to remove. With no index (a directory
 * recorded before cosi kept one), only `<type>.yaml` files whose every document is a resource of
 * that type count as written by cosi.
 */
export async function staleGoldenFiles(dir: string, written: readonly string[]): Promise<string[]> {
  const before = (await readGoldenIndex(dir)) ?? (await recognisedGoldenFiles(dir));
  return before.filter((name) => !written.includes(name)).sort();
}

/** Removes the stale golden files, each only if it still is a regular file; returns those removed. */
export async function removeGoldenFiles(dir: string, names: readonly string[]): Promise<string[]> {
  const removed: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const info = await lstat(file).catch(() => undefined);
    if (!info?.isFile()) continue;
    await rm(file);
    removed.push(name);
  }
  return removed;
}

/** Records the golden files written, atomically. */
export async function writeGoldenIndex(dir: string, written: readonly string[]): Promise<void> {
  const index = { files: [...written].sort() };
  await writeFileAtomically(path.join(dir, GOLDEN_INDEX), `${JSON.stringify(index, null, 2)}\n`);
}

/**
 * The golden files a check compares, when an index lists them: those it names (other files in
 * the directory, a `docker-compose.yml`, are not goldens). `undefined` without a readable index
 * (a tree recorded before cosi kept one, or written by hand): then every YAML file is a golden.
 */
export async function goldenFilesToCompare(dir: string): Promise<string[] | undefined> {
  const index = await readIndexFile(dir);
  return typeof index === 'object' ? index : undefined;
}

/** The names the index lists; `undefined` without one. An index naming other paths is ignored. */
async function readGoldenIndex(dir: string): Promise<string[] | undefined> {
  const index = await readIndexFile(dir);
  // An index that cannot be read names nothing to remove.
  return index === 'unreadable' ? [] : index;
}

/** The golden names of the index; `undefined` without one; `unreadable` when it is no index. */
async function readIndexFile(dir: string): Promise<string[] | 'unreadable' | undefined> {
  const file = path.join(dir, GOLDEN_INDEX);
  const info = await lstat(file).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return 'unreadable';
  }
  const files =
    typeof parsed === 'object' && parsed !== null && 'files' in parsed ? parsed.files : undefined;
  if (!Array.isArray(files)) return 'unreadable';
  // Only plain names of golden files: an edited index cannot make cosi remove anything else.
  return files.filter((name): name is string => typeof name === 'string' && isGoldenName(name));
}

/** `<type>.yaml` files of regular files whose every document is a resource of `<type>`. */
async function recognisedGoldenFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isFile() || !isGoldenName(entry.name)) continue;
    const type = entry.name.slice(0, -'.yaml'.length);
    const text = await readFile(path.join(dir, entry.name), 'utf8').catch(() => undefined);
    if (text !== undefined && holdsOnly(type, text)) out.push(entry.name);
  }
  return out;
}

function holdsOnly(type: string, text: string): boolean {
  const docs = parseAllDocuments(text, { logLevel: 'error' });
  if (!Array.isArray(docs)) return false;
  let count = 0;
  for (const doc of docs) {
    if (doc.errors.length > 0) return false;
    if (doc.contents === null) continue;
    const value: unknown = doc.toJS();
    const metadata =
      typeof value === 'object' && value !== null && 'metadata' in value
        ? value.metadata
        : undefined;
    if (typeof metadata !== 'object' || metadata === null) return false;
    if (!('type' in metadata) || metadata.type !== type) return false;
    if (!('id' in metadata) || typeof metadata.id !== 'string') return false;
    count += 1;
  }
  return count > 0;
}
