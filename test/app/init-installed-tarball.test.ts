import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installedTarball } from '../../src/app/init/installed-tarball.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'cosi-installed-tarball-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A package at `owner` whose node_modules holds cosi, with this package.json. */
async function installedIn(owner: string, manifest: Record<string, unknown>): Promise<string> {
  const cosi = path.join(owner, 'node_modules', 'cosi');
  await mkdir(cosi, { recursive: true });
  await writeFile(path.join(owner, 'package.json'), JSON.stringify(manifest));
  return cosi;
}

describe('the tarball a cosi in a node_modules was installed from', () => {
  it("is the .tgz the holding package's package.json names, relative to that package", async () => {
    await mkdir(path.join(root, 'dl'));
    await writeFile(path.join(root, 'dl', 'cosi-0.1.0.tgz'), '');
    const cosi = await installedIn(path.join(root, 'tools'), {
      devDependencies: { cosi: 'file:../dl/cosi-0.1.0.tgz' },
    });
    expect(installedTarball(cosi)).toBe(path.join(root, 'dl', 'cosi-0.1.0.tgz'));
  });

  it("is the one npx ran (`npx ./cosi-0.1.0.tgz`), as its cache's package records it", async () => {
    await writeFile(path.join(root, 'cosi-0.1.0.tgz'), '');
    const cache = path.join(root, '.npm', '_npx', '0a1b2c3d');
    const cosi = await installedIn(cache, {
      dependencies: { cosi: `file:${path.relative(cache, path.join(root, 'cosi-0.1.0.tgz'))}` },
      _npx: { packages: ['./cosi-0.1.0.tgz'] },
    });
    expect(installedTarball(cosi)).toBe(path.join(root, 'cosi-0.1.0.tgz'));
  });

  it('is unknown when the tarball is gone, or cosi came from elsewhere or is in no node_modules', async () => {
    const gone = await installedIn(path.join(root, 'a'), {
      dependencies: { cosi: 'file:../cosi-0.1.0.tgz' },
    });
    expect(installedTarball(gone)).toBeUndefined();
    await mkdir(path.join(root, 'cosi-src'));
    const directory = await installedIn(path.join(root, 'b'), {
      dependencies: { cosi: 'file:../cosi-src' },
    });
    expect(installedTarball(directory)).toBeUndefined();
    const registry = await installedIn(path.join(root, 'c'), { dependencies: { cosi: '^0.1.0' } });
    expect(installedTarball(registry)).toBeUndefined();
    const notJson = await installedIn(path.join(root, 'd'), {});
    await writeFile(path.join(root, 'd', 'package.json'), '{ not json');
    expect(installedTarball(notJson)).toBeUndefined();
    expect(installedTarball(path.join(root, 'cosi-src'))).toBeUndefined();
  });
});
