import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type * as Jiti from 'jiti';
import { pruneCacheDirectory } from '../../src/loaders/cache-pruning.js';
import { MOST_TRANSPILED, withTranspileCache } from '../../src/loaders/transpile-cache.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-cache-pruning-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `n` files, the i-th written i seconds after the epoch's 1,000,000th. */
async function files(n: number, prefix = 'f'): Promise<void> {
  for (let i = 0; i < n; i++) {
    const file = path.join(dir, `${prefix}${String(i).padStart(4, '0')}`);
    await writeFile(file, '');
    await utimes(file, 1_000_000 + i, 1_000_000 + i);
  }
}

describe('pruneCacheDirectory', () => {
  it('leaves a directory within the bound alone', async () => {
    await files(10);
    pruneCacheDirectory(dir, 10);
    expect(await readdir(dir)).toHaveLength(10);
  });

  it('removes the oldest written down to four fifths of the bound, never one it is told to keep', async () => {
    await files(12);
    pruneCacheDirectory(dir, 10, (name) => name === 'f0000');
    // 12 files, 8 left: the four oldest but the kept one go.
    expect((await readdir(dir)).sort()).toEqual([
      'f0000',
      'f0005',
      'f0006',
      'f0007',
      'f0008',
      'f0009',
      'f0010',
      'f0011',
    ]);
  });

  it('is no error on a directory that is not there', () => {
    expect(() => pruneCacheDirectory(path.join(dir, 'none'), 1)).not.toThrow();
  });

  it("bounds the transpiled configs' cache, which every temporary project added to for good", async () => {
    await files(MOST_TRANSPILED, 'old-');
    const kept = withTranspileCache(
      (options: Jiti.TransformOptions): Jiti.TransformResult => ({ code: options.source }),
      dir,
      'jiti@2',
    );
    kept({ source: 'export default 1', filename: '/p/cosi.config.ts', ts: true });
    const left = await readdir(dir);
    expect(left.length).toBe(Math.floor(MOST_TRANSPILED * 0.8));
    // The one just written is kept, and the oldest went.
    expect(left.filter((name) => !name.startsWith('old-'))).toHaveLength(1);
    expect(left).not.toContain('old-0000');
  });
});
