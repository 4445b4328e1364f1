/**
 * The disk side of `--schema-location`: reads a schema's path for `json-schema-kinds.ts`, which
 * stays free of I/O. Relative paths are taken from the working directory, as kubeconform takes
 * them. Synchronous: a kind is looked up in the middle of a load, and only the kinds documents
 * use are read (a few small files).
 */

import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { decodeManifest } from '../loaders/decode-manifest.js';
import { errorCode } from '../loaders/manifest-file-system.js';
import { MAX_CRD_BYTES } from '../loaders/parse/parse-manifest.js';
import type { ReadSchemaFile } from '../loaders/kubernetes/json-schema-kinds.js';

/** Reads schema paths below `cwd`: no file there (or no directory on the way) is `missing`. */
export function schemaFileReader(cwd: string): ReadSchemaFile {
  return (path) => {
    const absolute = resolve(cwd, path);
    try {
      const stat = statSync(absolute);
      if (stat.isDirectory()) return { error: `${path} is a directory, not a schema file` };
      // A FIFO blocked the run for ever, and `/dev/zero` filled the memory: read no such file.
      if (!stat.isFile()) return { error: `${path} is not a regular file` };
      if (stat.size > MAX_CRD_BYTES) {
        return { error: `${path} is over ${MAX_CRD_BYTES / 1024 / 1024} MB` };
      }
      return { text: decodeManifest(readFileSync(absolute)) };
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return { missing: true };
      return { error: error instanceof Error ? error.message : String(error) };
    }
  };
}
