import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { CI_JOB_PATH, ciJob, STARTER_FILES, type StarterFile } from './starter-files.js';

/**
 * The starter project's files for `dir`: in a git repository whose root is above it, the CI job
 * goes to the root's `.github/workflows` (GitHub reads workflows there only: one in
 * `dir/.github` never runs), its steps working in `dir`. Elsewhere, as {@link STARTER_FILES}.
 *
 * @example
 * await starterFilesFor('/src/infra/cosi') // in a repository at /src/infra:
 * // the CI job at /src/infra/.github/workflows/cosi.yml, working-directory cosi
 */
export async function starterFilesFor(dir: string): Promise<StarterFile[]> {
  const root = await repositoryRoot(dir);
  if (root === undefined || root === dir) return [...STARTER_FILES];
  const workingDirectory = path.relative(root, dir).split(path.sep).join('/');
  return STARTER_FILES.map((file) =>
    file.path === CI_JOB_PATH ? { ...file, text: ciJob(workingDirectory), base: root } : file,
  );
}

/**
 * The nearest directory at or above `dir` that holds `.git` (a directory, or a worktree's or
 * submodule's file), as config discovery stops there; none outside a repository.
 */
async function repositoryRoot(dir: string): Promise<string | undefined> {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if (await exists(path.join(at, '.git'))) return at;
    if (path.dirname(at) === at) return undefined;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
