import { pointerKey, type Pointer } from '../engine/resource/pointer.js';
import type { ManifestResource } from '../loaders/manifest-resource.js';

/**
 * Where each of a load's manifest resources was written, in a form that crosses to another
 * thread cheaply (strings and one typed array, no object per resource): a project worker sends
 * it once its manifests are loaded, so that its supervisor can place a finding about one of them
 * (the resource a controller was stuck on) after the worker is gone.
 */
export interface ManifestPlaces {
  /** `pointerKey` of each resource. */
  readonly keys: readonly string[];
  /** The manifest files (display paths), each once. */
  readonly files: readonly string[];
  /** Per resource: the index of its file, its line and its column (1-based). */
  readonly at: Int32Array;
}

/** Where a place is: a file and a position in it (line 0: the file as a whole). */
export interface Place {
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

/** The places of `resources`. */
export function manifestPlaces(resources: readonly ManifestResource[]): ManifestPlaces {
  const keys: string[] = [];
  const files: string[] = [];
  const fileIndex = new Map<string, number>();
  const at = new Int32Array(resources.length * 3);
  for (const [i, { key, source }] of resources.entries()) {
    let index = fileIndex.get(source.file);
    if (index === undefined) {
      index = files.length;
      files.push(source.file);
      fileIndex.set(source.file, index);
    }
    keys.push(key);
    at[i * 3] = index;
    at[i * 3 + 1] = source.line;
    at[i * 3 + 2] = source.col;
  }
  return { keys, files, at };
}

/**
 * The places after a watch round: `newer` holds the resources of the files the round changed,
 * whole, so they replace what `older` had of those files.
 */
export function mergePlaces(newer: ManifestPlaces, older: ManifestPlaces): ManifestPlaces {
  const files = [...newer.files];
  const replaced = new Set(newer.files);
  const fileIndex = new Map(files.map((file, i) => [file, i]));
  const keys = [...newer.keys];
  const at = [...newer.at];
  for (const [i, key] of older.keys.entries()) {
    const file = older.files[older.at[i * 3] ?? -1];
    if (file === undefined || replaced.has(file)) continue;
    let index = fileIndex.get(file);
    if (index === undefined) {
      index = files.length;
      files.push(file);
      fileIndex.set(file, index);
    }
    keys.push(key);
    at.push(index, older.at[i * 3 + 1] ?? 0, older.at[i * 3 + 2] ?? 0);
  }
  return { keys, files, at: Int32Array.from(at) };
}

/**
 * Where the resource of `pointer` was written; `undefined` when no manifest holds it (a
 * controller's output). A scan: it is looked up once, after a fault.
 */
export function placeOfPointer(places: ManifestPlaces, pointer: Pointer): Place | undefined {
  const i = places.keys.indexOf(pointerKey(pointer));
  if (i < 0) return undefined;
  const file = places.files[places.at[i * 3] ?? -1];
  if (file === undefined) return undefined;
  return { file, line: places.at[i * 3 + 1] ?? 0, col: places.at[i * 3 + 2] ?? 0 };
}
