import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { onTestFinished } from 'vitest';

/**
 * A new directory under the system's temporary directory, removed with everything in it when
 * the test that asked for it finishes (passed or failed), so that runs leave nothing behind.
 */
export async function temporaryDirectory(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A {@link temporaryDirectory} holding `files` (name: text), each written at its top. */
export async function temporaryTree(
  prefix: string,
  files: Record<string, string>,
): Promise<string> {
  const dir = await temporaryDirectory(prefix);
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}
