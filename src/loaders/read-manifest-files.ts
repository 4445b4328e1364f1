/**
 * The reading half of the manifest reader: the text of each file the walk found, or the finding
 * that says why it cannot be read. The walking half is `walk-manifest-tree.ts`.
 */

import { EncodingError } from './decode-manifest.js';
import { createFinding, type Finding } from './finding.js';
import {
  READ_CONCURRENCY,
  type FoundFile,
  type ManifestFileSystem,
} from './manifest-file-system.js';
import { cannotRead } from './unreadable-file.js';

/** What reading one file gave: its text, or the `unreadable-file` finding. */
export type FileRead = { readonly text: string } | { readonly finding: Finding };

/**
 * Reads one file as UTF-8 text. Never throws: a file that cannot be read, or is not UTF-8, is a
 * finding.
 */
export async function readManifestFile(fs: ManifestFileSystem, file: FoundFile): Promise<FileRead> {
  try {
    return { text: await fs.readFile(file.absolute, file.pipe === true ? { pipe: true } : {}) };
  } catch (error) {
    if (error instanceof EncodingError) {
      const { line, col, message } = error;
      const at = { file: file.display, line, col, pointer: '' };
      return { finding: createFinding({ code: 'invalid-encoding', message, ...at }) };
    }
    return { finding: cannotRead(file.display, error) };
  }
}

/** Reads the files with {@link readManifestFile}, a few at a time; the reads keep their order. */
export async function readManifestFiles(
  fs: ManifestFileSystem,
  files: readonly FoundFile[],
): Promise<FileRead[]> {
  const reads = new Array<FileRead>(files.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const index = next++;
      reads[index] = await readManifestFile(fs, files[index] as FoundFile);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, files.length) }, worker));
  return reads;
}
