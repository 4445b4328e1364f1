/** `cosi watch` on JSON manifests: a JSON file's change starts a round, as a YAML file's does. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { WatchRound, WatchSession } from '../../src/app/watch-session.js';
import { startEditedWatch } from '../support/watch-edits.js';

let dir: string;
let session: WatchSession | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-watch-json-'));
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});

afterEach(async () => {
  await session?.close();
  session = undefined;
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

const data = (round: WatchRound | undefined): unknown =>
  round?.snapshot?.resources.find((r) => r.metadata.id === 'settings')?.spec;

it('re-reads a JSON manifest that changed, and sets it aside once it is no manifest', async () => {
  await writeFile(
    path.join(dir, 'settings.json'),
    '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings"}, "data": {"mode": "a"}}',
  );
  const watch = await startEditedWatch({ files: ['.'], cwd: dir, stable: true });
  session = watch.session;
  expect(watch.rounds[0]?.findings).toEqual([]);
  expect(data(watch.rounds[0])).toMatchObject({ data: { mode: 'a' } });

  const changed = await watch.save('settings.json', '"mode": "a"', '"mode": "b"');
  expect(watch.rounds).toHaveLength(2);
  expect(data(changed)).toMatchObject({ data: { mode: 'b' } });

  // Its content says whether it is a manifest: no longer one, it is set aside, not an error.
  const aside = await watch.save('settings.json', /^[^]*$/, '{"name": "settings"}');
  expect(aside.findings.map((f) => [f.code, f.message])).toEqual([
    [
      'empty-input',
      'no manifest files found; set aside: settings.json (JSON file that is no manifest)',
    ],
  ]);
});
