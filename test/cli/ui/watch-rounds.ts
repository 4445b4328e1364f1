import { cp, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createRoundViews, type RoundView } from '../../../src/cli/ui/round-view.js';
import type { FileEvent } from '../../../src/app/file-events.js';
import { startWatchSession, type WatchSession } from '../../../src/app/watch-session.js';
import { REPO } from '../run-cli.js';

/** A watch session on a copy of fixtures/vm-network, driven by the test, as round views. */
export interface WatchedCopy {
  readonly dir: string;
  readonly views: RoundView[];
  /** Replaces text in a file and waits for the round it causes. */
  edit(file: string, from: string | RegExp, to: string): Promise<RoundView>;
  write(file: string, text: string): Promise<RoundView>;
  remove(file: string): Promise<RoundView>;
  readonly session: WatchSession;
  close(): Promise<void>;
}

export async function watchCopy(
  options: { readonly before?: (dir: string) => Promise<void> } = {},
): Promise<WatchedCopy> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-watch-ui-'));
  await cp(path.join(REPO, 'fixtures/vm-network'), dir, { recursive: true });
  await options.before?.(dir);
  const toView = createRoundViews({ stable: true });
  const views: RoundView[] = [];
  let emit: ((event: FileEvent) => void) | undefined;
  const session = await startWatchSession({
    files: ['.'],
    cwd: dir,
    stable: true,
    // As `cosi watch` runs for its screen: recorded, so the resource detail can explain.
    record: true,
    debounceMs: 0,
    watch: (_paths, onEvent) => {
      emit = onEvent;
      return { close: () => Promise.resolve() };
    },
    onRound: (round) => views.push(toView(round)),
  });
  const changed = async (file: string, kind: FileEvent['kind']): Promise<RoundView> => {
    const before = views.length;
    emit?.({ kind, path: path.join(dir, file) });
    await new Promise((resolve) => setImmediate(resolve));
    await session.idle();
    if (views.length === before) throw new Error(`no round after ${file} changed`);
    return views.at(-1) as RoundView;
  };
  return {
    dir,
    views,
    session,
    async edit(file, from, to) {
      const full = path.join(dir, file);
      await writeFile(full, (await readFile(full, 'utf8')).replace(from, to));
      return changed(file, 'change');
    },
    async write(file, text) {
      await writeFile(path.join(dir, file), text);
      return changed(file, 'add');
    },
    async remove(file) {
      await unlink(path.join(dir, file));
      return changed(file, 'unlink');
    },
    async close() {
      await session.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
