import { readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { concernsProject, type FileEvent } from '../../app/file-events.js';

/**
 * What changed under `roots` (files, or directories walked as the file watcher walks them:
 * hidden entries and `node_modules` skipped) after `since` (ms since the epoch), by the
 * files' modification times: a manifest or script written, or a directory whose entries were
 * added, removed or renamed. For the gap between a start's read of the files and its watcher's
 * initial scan, when a save is seen by neither. By path; a directory is named as `addDir`, the
 * event of one that may hold new manifests.
 *
 * Nothing written before `since` is named (a project generated, then started at once): a file's
 * time is the kernel's coarse clock, never ahead of the real one. It may lag it by a tick (a few
 * ms), so a save in the first ms after `since` may go unnamed: one the start, which reads the
 * files later than that, has read.
 */
export async function changedSince(roots: readonly string[], since: number): Promise<FileEvent[]> {
  const changed: FileEvent[] = [];
  const visit = async (file: string, root: boolean): Promise<void> => {
    const name = path.basename(file);
    if (!root && (name.startsWith('.') || name === 'node_modules')) return;
    // Gone meanwhile: its directory's time says so.
    const info = await stat(file).catch(() => undefined);
    if (info === undefined) return;
    if (info.isDirectory()) {
      if (info.mtimeMs > since) changed.push({ kind: 'addDir', path: file });
      const entries = await readdir(file).catch(() => []);
      for (const entry of entries) await visit(path.join(file, entry), false);
      return;
    }
    const event: FileEvent = { kind: 'change', path: file };
    if (info.mtimeMs > since && concernsProject(event)) changed.push(event);
  };
  for (const root of new Set(roots.map((r) => path.resolve(r)))) await visit(root, true);
  return changed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
