/** `cosi watch` on wall time: a manifest edit is stamped with the time of its round. */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { WatchRound, WatchSession } from '../../src/app/watch-session.js';
import { startEditedWatch } from '../support/watch-edits.js';

const REPO = path.resolve(import.meta.dirname, '../..');
let dir: string;
let session: WatchSession | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-watch-edit-time-'));
  await cp(path.join(REPO, 'fixtures/vm-network'), dir, { recursive: true });
});

afterEach(async () => {
  await session?.close();
  session = undefined;
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

const web1 = (round: WatchRound | undefined) =>
  round?.snapshot?.resources.find(
    (r) => r.metadata.type === 'VMs.example.org' && r.metadata.id === 'web-1',
  )?.metadata;

it("stamps an edited manifest's resource with the wall time of the round that applied it", async () => {
  const watch = await startEditedWatch({ files: ['.'], cwd: dir });
  session = watch.session;
  const created = web1(watch.rounds[0]);
  expect(created).toBeDefined();
  // Later than anything round 1 stamped, by more than the clock's resolution.
  await new Promise((resolve) => setTimeout(resolve, 30));
  // The watch's debounce runs on fake timers; the clock it stamps with is the real one.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const before = Date.now();
  const edited = await watch.save('vms.yaml', 'cpus: 2', 'cpus: 3');
  const updated = web1(edited);
  expect(updated?.version).toBeGreaterThan(created!.version);
  expect(updated?.updated).toBeGreaterThanOrEqual(before);
  expect(updated?.updated).toBeLessThanOrEqual(Date.now());
});
