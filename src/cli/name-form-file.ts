import { readFileSync } from 'node:fs';
import { writeCacheFile } from '../loaders/cache-file.js';
import type { NameForms, NameFormStore } from '../engine/resource/name-forms.js';

/** A store of name forms in a file, read at its first use and written by `save`. */
export interface NameFormFile extends NameFormStore {
  /** Writes the file when names were added since it was read (whole, or not at all). */
  save(): void;
}

/** The most names a file keeps: a bound on a file no one cleans. */
const MAX_NAMES = 4096;

/**
 * The name forms kept in `file` (see `keepNameFormsIn`), `{ "VirtualMachines": [true,
 * "VirtualMachine"], ... }`; with no file, a store that keeps nothing. A file that cannot be
 * read or is not such an object is an empty store: it is rewritten whole by the next save.
 */
export function nameFormFile(file: string | undefined): NameFormFile {
  if (file === undefined)
    return { get: () => undefined, set: () => undefined, save: () => undefined };
  let names: Map<string, NameForms> | undefined;
  let added = false;
  const read = (): Map<string, NameForms> => (names ??= readNames(file));
  return {
    get: (name) => read().get(name),
    set: (name, forms) => {
      const kept = read();
      if (kept.size >= MAX_NAMES) return;
      kept.set(name, forms);
      added = true;
    },
    save: () => {
      if (!added || names === undefined) return;
      const data: Record<string, [boolean, string]> = {};
      for (const [name, forms] of names) data[name] = [forms.plural, forms.singular];
      if (writeCacheFile(file, JSON.stringify(data))) added = false;
    },
  };
}

function readNames(file: string): Map<string, NameForms> {
  const names = new Map<string, NameForms>();
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return names;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return names;
  for (const [name, forms] of Object.entries(data)) {
    if (
      Array.isArray(forms) &&
      forms.length === 2 &&
      typeof forms[0] === 'boolean' &&
      typeof forms[1] === 'string'
    ) {
      names.set(name, { plural: forms[0], singular: forms[1] });
    }
  }
  return names;
}
