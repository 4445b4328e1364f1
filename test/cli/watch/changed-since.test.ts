import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changedSince } from '../../../src/cli/watch/changed-since.js';

describe('changedSince: what a start may not have read, by modification time', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-changed-since-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Writes a file (and its directories) dated `at` (ms since the epoch). */
  const dated = async (file: string, at: number): Promise<string> => {
    const full = path.join(dir, file);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, 'x: 1\n');
    await utimes(full, at / 1000, at / 1000);
    return full;
  };

  it('names the manifests and scripts written since, and the directories whose entries changed; nothing older, hidden, or not of the project', async () => {
    const since = Date.now();
    const before = since - 60_000;
    await dated('old.yaml', before);
    await dated('sub/old.yaml', before);
    await dated('notes.txt', since + 1000);
    await dated('.git/new.yaml', since + 1000);
    await dated('node_modules/m/new.js', since + 1000);
    const manifest = await dated('new.yaml', since + 1000);
    const script = await dated('sub/config.ts', since + 1000);
    // Directories dated before: only what changed in them is named.
    for (const d of ['sub', '.git', 'node_modules/m', 'node_modules', '']) {
      await utimes(path.join(dir, d), before / 1000, before / 1000);
    }
    expect(await changedSince([dir], since)).toEqual([
      { kind: 'change', path: manifest },
      { kind: 'change', path: script },
    ]);
    // A file added (or removed) dates its directory.
    await writeFile(path.join(dir, 'sub/added.json'), '{}');
    expect((await changedSince([dir], since)).map((e) => path.relative(dir, e.path))).toEqual([
      'new.yaml',
      'sub',
      'sub/added.json',
      'sub/config.ts',
    ]);
  });

  it('takes a file given by name as it is, and one gone as nothing', async () => {
    const since = Date.now();
    const file = await dated('.hidden.yaml', since + 1000);
    expect(await changedSince([file, path.join(dir, 'gone.yaml')], since)).toEqual([
      { kind: 'change', path: file },
    ]);
  });
});
