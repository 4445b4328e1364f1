import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type * as Jiti from 'jiti';
import { writeCacheFile } from './cache-file.js';
import { pruneCacheDirectory } from './cache-pruning.js';
import { textHash } from './text-hash.js';

/** A transpiler of config files, as jiti calls it. */
export type Transpile = (options: Jiti.TransformOptions) => Jiti.TransformResult;

/** The most transpiled files kept: a project has a few; every test's temporary one adds its own. */
export const MOST_TRANSPILED = 2_000;

/** A kept transpilation: everything its output depends on, and the output. */
interface Entry {
  readonly salt: string;
  readonly settings: string;
  readonly source: string;
  readonly code: string;
}

/**
 * `transpile` with its outputs kept in `directory` between runs, so that a config file whose
 * text did not change is not transpiled again (jiti's transpiler is 1.5 MB of code to load).
 * An entry is named by a hash of the transform's settings (the file's name among them) and
 * `salt` (the transpiler's version): one entry per file, replaced when its text changes, so the
 * directory does not grow with every edit. It holds the source it was made from, the settings
 * and the salt, and is used only when all three are equal (a string comparison: hashing the
 * source too cost a millisecond per config in the interpreter), so neither an edit nor a
 * collision of the hash can give a wrong config. Failed transpiles are not kept. With no
 * directory (none safe to use), nothing is kept. The directory keeps the latest
 * {@link MOST_TRANSPILED} files written.
 */
export function withTranspileCache(
  transpile: Transpile,
  directory: string | undefined,
  salt: string,
): Transpile {
  if (directory === undefined) return transpile;
  return (options) => {
    const { source, ...rest } = options;
    const settings = JSON.stringify(rest);
    const file = path.join(directory, `${textHash(`${salt}\0${settings}`)}.json`);
    const kept = readEntry(file);
    if (
      kept !== undefined &&
      kept.salt === salt &&
      kept.settings === settings &&
      kept.source === source
    ) {
      return { code: kept.code };
    }
    const result = transpile(options);
    if (result.error === undefined && typeof result.code === 'string') {
      if (writeCacheFile(file, JSON.stringify({ salt, settings, source, code: result.code }))) {
        pruneCacheDirectory(directory, MOST_TRANSPILED, (name) => name === path.basename(file));
      }
    }
    return result;
  };
}

function readEntry(file: string): Entry | undefined {
  try {
    const entry = JSON.parse(readFileSync(file, 'utf8')) as Partial<Entry> | null;
    return typeof entry?.code === 'string' ? (entry as Entry) : undefined;
  } catch {
    return undefined;
  }
}
