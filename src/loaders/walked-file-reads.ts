/**
 * The reads, once the walk is over, of the files it met whose name alone cannot tell whether
 * they are manifests: another tool's files and JSON files.
 */

import type { FoundFile } from './manifest-file-system.js';
import { ManifestTooLargeError } from './manifest-size.js';
import { readManifestFiles } from './read-manifest-files.js';
import { toolFile } from './unrendered-sources.js';
import { isJsonManifest } from './json-manifests.js';
import { isObjectNotToolFile } from './tool-files.js';
import type { ManifestWalkRecord, NamedFile } from './manifest-walk-record.js';

/** A file met that another tool reads by its name, with what it is (`toolFileOf`). */
export type ToolFile = NamedFile & { readonly what: string };

/**
 * Reads the files the walk met that another tool reads by their name: each is set aside unless
 * its first document is a Kubernetes object ({@link isObjectNotToolFile}: a `values.yaml` that
 * is a `Deployment`), which is read as any manifest. One that cannot be read is set aside as its
 * name says.
 */
export async function readToolFiles(
  record: ManifestWalkRecord,
  toolFiles: readonly ToolFile[],
): Promise<void> {
  const reads = await readManifestFiles(record.fs, toolFiles);
  reads.forEach((read, i) => {
    const { display, absolute, real, what } = toolFiles[i] as ToolFile;
    if ('text' in read && isObjectNotToolFile(read.text)) record.addFile(real, display, absolute);
    else record.unrendered.push(toolFile(display, what));
  });
}

/**
 * Reads the JSON files met in directories (not named) to tell the manifests among them from a
 * repository's other JSON (`package.json`, JSON Schemas, a data file), whose real paths are
 * added to `notManifests` (set aside when the tree is made). One too large for a manifest, or
 * not UTF-8, is data too; one that cannot be read for another reason stays a file, and its read
 * says why.
 */
export async function readJsonFiles(
  record: ManifestWalkRecord,
  notManifests: Set<string>,
): Promise<void> {
  const walked = [...record.walkedJson].filter((real) => !record.named.has(real));
  const files = walked.map((real) => record.files.get(real) as FoundFile);
  const reads = await readManifestFiles(record.fs, files);
  const tooLarge = new ManifestTooLargeError().message;
  reads.forEach((read, i) => {
    const data =
      'text' in read
        ? !isJsonManifest(read.text)
        : read.finding.code === 'invalid-encoding' || read.finding.message.endsWith(tooLarge);
    if (data) notManifests.add(walked[i] as string);
  });
}
