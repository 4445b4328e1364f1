import { cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WatchSession } from '../../src/app/watch-session.js';
import { startEditedWatch } from '../support/watch-edits.js';
import { REPO } from '../cli/run-cli.js';

let dir: string;
let session: WatchSession | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-watch-renamed-'));
  const from = path.join(REPO, 'fixtures/kro-webapp');
  await cp(path.join(from, 'rgd.yaml'), path.join(dir, 'rgd.yaml'));
  await mkdir(path.join(dir, 'apps'));
  await cp(path.join(from, 'instances.yaml'), path.join(dir, 'apps', 'instances.yaml'));
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});

afterEach(async () => {
  await session?.close();
  session = undefined;
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

describe('cosi watch when a directory is renamed', () => {
  it('names the files that moved, not the directories as changed files too', async () => {
    const watched = await startEditedWatch({ files: ['.'], cwd: dir, stable: true });
    session = watched.session;
    expect(watched.rounds[0]?.findings).toEqual([]);
    await rename(path.join(dir, 'apps'), path.join(dir, 'web'));
    // What chokidar reports of `mv apps web`.
    const round = await watched.saw([
      { kind: 'unlink', path: path.join(dir, 'apps', 'instances.yaml') },
      { kind: 'unlinkDir', path: path.join(dir, 'apps') },
      { kind: 'addDir', path: path.join(dir, 'web') },
      { kind: 'add', path: path.join(dir, 'web', 'instances.yaml') },
    ]);
    expect(round.changed).toEqual(['apps/instances.yaml', 'web/instances.yaml']);
    expect(round.applied).toBe(true);
    // An empty directory added is a change of its own.
    await mkdir(path.join(dir, 'empty'));
    const added = await watched.saw([{ kind: 'addDir', path: path.join(dir, 'empty') }]);
    expect(added.changed).toEqual(['empty']);
  });
});
