/**
 * Round views built from what changed: each equals the view a whole diff of the state gives, and
 * builds only the rows of the resources that changed and of those the round before marked.
 */
import { cp, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRoundViews, type RoundView } from '../../../src/cli/ui/round-view.js';
import type { FileEvent } from '../../../src/app/file-events.js';
import {
  startWatchSession,
  type WatchRound,
  type WatchSession,
} from '../../../src/app/watch-session.js';
import { REPO } from '../run-cli.js';

let dir: string | undefined;
let session: WatchSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** What a view shows, without the parts that are the same objects by construction. */
const shown = (view: RoundView) => ({
  groups: view.groups.map((g) => ({
    type: g.type,
    rows: g.rows.map((r) => [r.marker, r.resource, r.previous]),
  })),
  counts: view.counts,
  resources: view.resources,
  writes: [...view.writes].map(([key, list]) => [key, [...list]]),
});

describe('incremental round views', () => {
  it('equal whole diffs and build only the rows of what changed', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-watch-rows-'));
    await cp(path.join(REPO, 'fixtures/vm-network'), dir, { recursive: true });
    await writeFile(
      path.join(dir, 'more.yaml'),
      Array.from(
        { length: 20 },
        (_, i) => `metadata:\n  type: host\n  id: extra-${i}\nspec:\n  cpus: 8\n  zone: z1\n`,
      ).join('---\n'),
    );
    const incremental = createRoundViews({ stable: true });
    const whole = createRoundViews({ stable: true });
    const pairs: [RoundView, RoundView][] = [];
    const built: number[] = [];
    let emit: ((event: FileEvent) => void) | undefined;
    session = await startWatchSession({
      files: ['.'],
      cwd: dir,
      stable: true,
      debounceMs: 0,
      watch: (_paths, onEvent) => {
        emit = onEvent;
        return { close: () => Promise.resolve() };
      },
      onRound: (round) => {
        const view = incremental(round);
        built.push(incremental.rowsBuilt);
        // The same round without what changed: the view diffs the whole state.
        const { changes: _changes, ...snapshot } = round.snapshot ?? {
          resources: [],
          definitions: [],
        };
        const wholeRound: WatchRound = round.snapshot ? { ...round, snapshot } : round;
        pairs.push([view, whole(wholeRound)]);
      },
    });
    const change = async (file: string, kind: FileEvent['kind'], edit?: [string, string]) => {
      const full = path.join(dir as string, file);
      if (edit) await writeFile(full, (await readFile(full, 'utf8')).replace(...edit));
      else if (kind === 'unlink') await unlink(full);
      emit?.({ kind, path: full });
      await new Promise((resolve) => setImmediate(resolve));
      await session?.idle();
    };
    await change('vms.yaml', 'change', ['image: postgres', 'image: mariadb']);
    await change('vms.yaml', 'change', ['image: mariadb', 'image: alpine']);
    await change('more.yaml', 'unlink');
    await change('vms.yaml', 'change', ['image: alpine', 'image: postgres']);

    expect(pairs).toHaveLength(5);
    for (const [view, wholeView] of pairs) expect(shown(view)).toEqual(shown(wholeView));
    const total = pairs[0]?.[0].groups.reduce((n, g) => n + g.rows.length, 0) ?? 0;
    expect(total).toBe(53);
    // The first round builds every row, and marks them all created; the one after unmarks them
    // (and builds the two rows of its edit). An edit of one VM then builds its row and its
    // NetworkConfig's and unmarks the two rows the edit before marked.
    expect(built.slice(0, 3)).toEqual([53, 55, 4]);
    expect(pairs[2]?.[0].counts).toEqual({ created: 0, updated: 2, destroyed: 0 });
    // The removed file: its 20 hosts and their 20 statuses marked destroyed, two rows unmarked.
    expect(built[3]).toBe(42);
    // Then the destroyed rows go (no row built for them) and the edit builds its two.
    expect(built[4]).toBe(2);
  }, 30_000);
});
