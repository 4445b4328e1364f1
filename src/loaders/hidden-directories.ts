/**
 * The hidden directories a walk skips (`.tekton/`, `.github/`): not walked, as `.git` is not, but
 * looked into one level deep, so that one holding Kubernetes objects is said rather than lost.
 * Tekton's Pipelines-as-Code keeps a repository's PipelineRuns in `.tekton/`, which kubeconform
 * walks and `cosi check .` passed over without a word.
 */

import * as path from 'node:path';
import { compareStrings } from '../engine/compare-strings.js';
import type { FoundFile, ManifestFileSystem } from './manifest-file-system.js';
import { POLICY_TEST_FILE } from './policy-tests.js';
import { readManifestFiles } from './read-manifest-files.js';
import { hiddenDirectory, YAML_FILE } from './unrendered-sources.js';
import { isChainsawTestFile } from './chainsaw-tests.js';
import { isObjectNotToolFile } from './tool-files.js';
import type { UnrenderedSource } from './unrendered-source.js';

/** Hidden directories never looked into: git's own, and no manifests'. */
const NEVER_LOOKED_INTO: ReadonlySet<string> = new Set(['.git']);

/** Whether a hidden directory of this name is looked into (see {@link hiddenManifestDirectories}). */
export const isLookedInto = (name: string): boolean => !NEVER_LOOKED_INTO.has(name);

/**
 * The set-aside entries of the hidden directories whose YAML files (the directory's own, not its
 * subdirectories') include a Kubernetes object, each naming those files. A directory holding a
 * chainsaw test (`.chainsaw-test/`) or a policy test (kyverno's `.kyverno-test/`, hundreds in
 * kyverno/policies) is the test's, and is not said; nor is a file of a tool's own
 * kind (Skaffold's), nor one read all the same (`read`, absolute paths: a kustomization lists it).
 */
export async function hiddenManifestDirectories(
  fs: ManifestFileSystem,
  dirs: readonly FoundFile[],
  read: ReadonlySet<string>,
): Promise<UnrenderedSource[]> {
  const said: UnrenderedSource[] = [];
  for (const dir of dirs) {
    let names: string[];
    try {
      const entries = await fs.readdir(dir.absolute);
      if (entries.some(({ name }) => isChainsawTestFile(name) || POLICY_TEST_FILE.test(name))) {
        continue;
      }
      names = entries
        .filter((entry) => entry.isFile() && YAML_FILE.test(entry.name))
        .filter((entry) => !read.has(path.join(dir.absolute, entry.name)))
        .map((entry) => entry.name)
        .sort(compareStrings);
    } catch {
      // Not readable: it was not to be walked anyway.
      continue;
    }
    if (names.length === 0) continue;
    const files = names.map((name) => ({
      display: path.join(dir.display, name),
      absolute: path.join(dir.absolute, name),
    }));
    const reads = await readManifestFiles(fs, files);
    const objects = names.filter((_, i) => {
      const read = reads[i];
      return read !== undefined && 'text' in read && isObjectNotToolFile(read.text);
    });
    if (objects.length > 0) said.push(hiddenDirectory(dir.display, objects));
  }
  return said;
}
