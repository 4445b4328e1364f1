/** `.cosiignore`, read as git reads a `.gitignore` (`ignore-file.ts`). */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ignorePatterns, readIgnoreFile } from '../../src/loaders/ignore-file.js';
import { walkManifestTree } from '../../src/loaders/walk-manifest-tree.js';
import { unblockedAfter } from '../support/unblocked-after.js';
import { writeBelow } from '../support/write-below.js';

describe('readIgnoreFile', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-ignore-file-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the first pattern of a file an editor on Windows wrote, byte order mark and CRLF (review gate5)', async () => {
    await writeFile(path.join(dir, '.cosiignore'), '\uFEFFvendor\r\n# comment\r\n\r\na/  \r\n');
    expect(await readIgnoreFile(dir)).toEqual(['vendor', 'a/']);
  });

  it('reads no pattern from a .cosiignore that is a named pipe, without blocking on it (review gate2 2)', async () => {
    const pipe = path.join(dir, '.cosiignore');
    execFileSync('mkfifo', [pipe]);
    const result = await unblockedAfter(readIgnoreFile(dir), pipe);
    expect(result).toEqual({ blocked: false, value: [] });
  });

  it('reads no pattern when there is no file', async () => {
    expect(await readIgnoreFile(dir)).toEqual([]);
  });

  it('reads a pattern written from the working directory (./vendor) as anchored there, in --ignore and .cosiignore alike (review gate5 7)', async () => {
    const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}}\n`;
    await writeBelow(dir, 'vendor/a.yaml', cm('a'));
    await writeBelow(dir, 'vendor/keep.yaml', cm('keep'));
    await writeBelow(dir, 'build/b.yaml', cm('b'));
    await writeBelow(dir, 'app/vendor/c.yaml', cm('c'));
    await writeBelow(dir, 'app/d.yaml', cm('d'));
    await writeFile(path.join(dir, '.cosiignore'), './build/\n');
    const ignore = await ignorePatterns({
      cwd: dir,
      ignore: ['./vendor/*', '!./vendor/keep.yaml'],
    });
    const tree = await walkManifestTree(['.'], { cwd: dir, ignore });
    expect(tree.files.map((f) => f.display)).toEqual([
      'app/d.yaml',
      'app/vendor/c.yaml',
      'vendor/keep.yaml',
    ]);
  });

  it("reads a named directory's .cosiignore, scoped to it as git scopes a nested .gitignore (cosi check p after cosi init p)", async () => {
    const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}}\n`;
    await writeBelow(dir, 'p/app.yaml', cm('app'));
    await writeBelow(dir, 'p/expected/a.yaml', cm('a'));
    await writeBelow(dir, 'p/sub/expected/b.yaml', cm('b'));
    await writeBelow(dir, 'p/drafts/c.yaml', cm('c'));
    await writeBelow(dir, 'p/sub/drafts/d.yaml', cm('d'));
    await writeBelow(dir, 'q/expected/e.yaml', cm('e'));
    await writeFile(path.join(dir, 'p', '.cosiignore'), 'expected/\n/drafts/\n');
    const paths = ['p', 'q'];
    const ignore = await ignorePatterns({ cwd: dir, paths });
    const tree = await walkManifestTree(paths, { cwd: dir, ignore });
    // expected/ at any depth under p, /drafts/ at p's root only; q has no .cosiignore.
    expect(tree.files.map((f) => f.display)).toEqual([
      'p/app.yaml',
      'p/sub/drafts/d.yaml',
      'q/expected/e.yaml',
    ]);
    // Named from outside the working directory, it is walked relative to itself.
    const elsewhere = path.join(dir, 'q');
    const outside = path.join(dir, 'p');
    const fromElsewhere = await walkManifestTree([outside], {
      cwd: elsewhere,
      ignore: await ignorePatterns({ cwd: elsewhere, paths: [outside] }),
    });
    expect(fromElsewhere.files.map((f) => path.relative(outside, f.absolute))).toEqual([
      'app.yaml',
      path.join('sub', 'drafts', 'd.yaml'),
    ]);
  });

  it('reads the .cosiignore of a named directory that holds the working directory from that directory: cd sub && cosi check .. (review gate3 3)', async () => {
    const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}}\n`;
    await writeBelow(dir, 'top.yaml', cm('top'));
    await writeBelow(dir, 'other.yml', cm('other'));
    await writeBelow(dir, 'sub/keep.yaml', cm('keep'));
    await writeBelow(dir, 'sub/drop.yaml', cm('drop'));
    await writeBelow(dir, 'sub/local.yaml', cm('local'));
    await writeBelow(dir, 'sub/gen/g.yaml', cm('g'));
    await writeBelow(dir, 'sub/x.bak.yaml', cm('bak'));
    // --ignore: gen/ and other.yml at any depth. Of the directory named: sub/drop.yaml skipped, sub/keep.yaml kept though *.yaml skips.
    await writeFile(path.join(dir, '.cosiignore'), '*.yaml\n!top.yaml\n!sub/keep.yaml\n');
    // Of the working directory: relative to it, a nested .gitignore's.
    await writeFile(path.join(dir, 'sub', '.cosiignore'), '!local.yaml\n');
    const sub = path.join(dir, 'sub');
    for (const named of ['..', dir]) {
      const paths = [named];
      const ignore = await ignorePatterns({ cwd: sub, paths, ignore: ['gen/', 'other.yml'] });
      const tree = await walkManifestTree(paths, { cwd: sub, ignore });
      expect(tree.files.map((f) => path.relative(dir, f.absolute))).toEqual([
        path.join('sub', 'keep.yaml'),
        path.join('sub', 'local.yaml'),
        'top.yaml',
      ]);
    }
    // Named before it, the working directory's files are matched from there all the same.
    const both = ['.', '..'];
    const ignore = await ignorePatterns({ cwd: sub, paths: both });
    const tree = await walkManifestTree(both, { cwd: sub, ignore });
    expect(tree.files.map((f) => f.display)).toEqual([
      '../other.yml',
      '../top.yaml',
      'keep.yaml',
      'local.yaml',
    ]);
  });
});
