import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  installedFileKey,
  jitiCacheUsed,
  loadJitiWithCodeCache,
  saveJitiCache,
} from '../../src/cli/cached-jiti.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-cached-jiti-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A TypeScript module whose default export is `value`, with a type annotation jiti must strip. */
async function typescriptModule(value: number): Promise<string> {
  const file = path.join(dir, 'config.ts');
  await writeFile(file, `const value: number = ${String(value)};\nexport default value;\n`);
  return file;
}

describe('jiti run with a code cache', () => {
  it('loads TypeScript as jiti does, and takes the cache it saved on the next load', async () => {
    const cache = path.join(dir, 'cache');
    const file = await typescriptModule(41);
    const first = loadJitiWithCodeCache(cache).createJiti(file, {
      moduleCache: false,
      fsCache: false,
    });
    expect(await first.import(file, { default: true })).toBe(41);
    expect(jitiCacheUsed()).toBe(false);
    saveJitiCache();
    expect((await readdir(cache)).filter((name) => name.endsWith('-jiti.v8c'))).toHaveLength(1);

    await writeFile(file, 'const value: number = 42;\nexport default value;\n');
    const second = loadJitiWithCodeCache(cache).createJiti(file, {
      moduleCache: false,
      fsCache: false,
    });
    expect(jitiCacheUsed()).toBe(true);
    expect(await second.import(file, { default: true })).toBe(42);
  });

  it("uses the caller's transform when it gives one", async () => {
    const file = await typescriptModule(1);
    const seen: string[] = [];
    const jiti = loadJitiWithCodeCache(path.join(dir, 'cache')).createJiti(file, {
      moduleCache: false,
      fsCache: false,
      transform: (options) => {
        seen.push(options.filename ?? '');
        return { code: 'module.exports = { default: 7 };' };
      },
    });
    expect(await jiti.import(file, { default: true })).toBe(7);
    expect(seen).toEqual([file]);
  });

  it("names an installed file's content by its version, size and time, not by hashing it", async () => {
    const file = path.join(dir, 'bundle.cjs');
    await writeFile(file, 'exports.a = 1;\n');
    const key = installedFileKey(file, '2.6.1');
    expect(key).toMatch(/^[0-9a-f]{16}$/);
    expect(installedFileKey(file, '2.6.1')).toBe(key);
    expect(installedFileKey(file, '2.6.2')).not.toBe(key);
    // An edit in place of the same length: its time changes.
    await writeFile(file, 'exports.a = 2;\n');
    await utimes(file, new Date(), new Date(Date.now() + 5000));
    expect(installedFileKey(file, '2.6.1')).not.toBe(key);
  });
});
