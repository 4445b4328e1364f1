import { chmod, mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCachedScript } from '../../src/cli/cached-script.js';

let dir: string;
let cache: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-cached-script-'));
  cache = path.join(dir, 'cache');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const importModule = (specifier: string): Promise<unknown> => Promise.resolve({ specifier });

/** Writes a script whose `answer()` returns `value` (a one-character string keeps the length). */
async function script(value: string, place = dir): Promise<string> {
  await mkdir(place, { recursive: true });
  const file = path.join(place, 'script.cjs');
  await writeFile(
    file,
    `exports.answer = function answer() { return ${JSON.stringify(value)}; };\n` +
      'exports.file = __filename;\nexports.load = (s) => __cosiImport(s);\n',
  );
  return file;
}

describe('a script run with a V8 code cache', () => {
  it('runs without a cache the first time, and with the one it saved the next', async () => {
    const file = await script('a');
    const first = runCachedScript<{ answer(): string }>(file, {
      name: 'check',
      importModule,
      directory: cache,
    });
    expect(first.exports.answer()).toBe('a');
    expect(first.cacheUsed).toBe(false);
    first.saveCache();
    expect(await readdir(cache)).toHaveLength(1);

    const second = runCachedScript<{ answer(): string; file: string }>(file, {
      name: 'check',
      importModule,
      directory: cache,
    });
    expect(second.cacheUsed).toBe(true);
    expect(second.exports.answer()).toBe('a');
    expect(second.exports.file).toBe(file);
  });

  it('does not take the cache of another script of the same length', async () => {
    const file = await script('a');
    runCachedScript(file, { name: 'check', importModule, directory: cache }).saveCache();
    await script('b');
    const changed = runCachedScript<{ answer(): string }>(file, {
      name: 'check',
      importModule,
      directory: cache,
    });
    expect(changed.cacheUsed).toBe(false);
    expect(changed.exports.answer()).toBe('b');
  });

  it("deletes the caches of the script's other contents when it saves one", async () => {
    const file = await script('a');
    runCachedScript(file, { name: 'check', importModule, directory: cache }).saveCache();
    runCachedScript(file, { name: 'graph', importModule, directory: cache }).saveCache();
    const before = await readdir(cache);
    await script('b');
    runCachedScript(file, { name: 'check', importModule, directory: cache }).saveCache();
    const after = await readdir(cache);
    expect(after).toHaveLength(1);
    expect(before).not.toContain(after[0]);
  });

  it("names side files for the script's content, removed with its caches when it changes", async () => {
    const file = await script('a');
    const first = runCachedScript(file, { name: 'check', importModule, directory: cache });
    const side = first.sideFile('name-forms.json') ?? '';
    expect(path.dirname(side)).toBe(cache);
    first.saveCache();
    await writeFile(side, '{}');
    expect(
      runCachedScript(file, { name: 'check', importModule, directory: cache }).sideFile(
        'name-forms.json',
      ),
    ).toBe(side);
    await script('b');
    const changed = runCachedScript(file, { name: 'check', importModule, directory: cache });
    expect(changed.sideFile('name-forms.json')).not.toBe(side);
    changed.saveCache();
    expect(await readdir(cache)).not.toContain(path.basename(side));
  });

  it('keeps the caches of the same script at another place (another install)', async () => {
    const here = await script('a');
    const there = await script('b', path.join(dir, 'other-install'));
    runCachedScript(here, { name: 'check', importModule, directory: cache }).saveCache();
    runCachedScript(there, { name: 'check', importModule, directory: cache }).saveCache();
    expect(await readdir(cache)).toHaveLength(2);
    const again = runCachedScript<{ answer(): string }>(here, {
      name: 'check',
      importModule,
      directory: cache,
    });
    expect(again.cacheUsed).toBe(true);
    expect(again.exports.answer()).toBe('a');
  });

  it('keeps a cache per V8: two Node versions run in turn each keep theirs', async () => {
    const file = await script('a');
    const on = (engine: string) =>
      runCachedScript(file, { name: 'check', importModule, directory: cache, engine });
    on('11.3').saveCache();
    const other = on('13.6');
    expect(other.cacheUsed).toBe(false);
    other.saveCache();
    expect(await readdir(cache)).toHaveLength(2);
    expect(on('11.3').cacheUsed).toBe(true);
    expect(on('13.6').cacheUsed).toBe(true);
  });

  it('keeps one cache per name', async () => {
    const file = await script('a');
    runCachedScript(file, { name: 'check', importModule, directory: cache }).saveCache();
    const other = runCachedScript(file, { name: 'graph', importModule, directory: cache });
    expect(other.cacheUsed).toBe(false);
    other.saveCache();
    expect((await readdir(cache)).sort()).toEqual([
      expect.stringMatching(/-check\.v8c$/) as string,
      expect.stringMatching(/-graph\.v8c$/) as string,
    ]);
  });

  it("gives the script's __cosiImport calls to importModule", async () => {
    const file = await script('a');
    const run = runCachedScript<{ load(s: string): Promise<unknown> }>(file, {
      name: 'check',
      importModule,
      directory: cache,
    });
    await expect(run.exports.load('etcd3')).resolves.toEqual({ specifier: 'etcd3' });
  });

  it('reads a script that is not ASCII as UTF-8', async () => {
    const file = await script('é─😀');
    const run = runCachedScript<{ answer(): string }>(file, {
      name: 'check',
      importModule,
      directory: cache,
    });
    expect(run.exports.answer()).toBe('é─😀');
  });

  it('keys the cache by the content hash its maker gives, when one is given', async () => {
    const file = await script('a');
    const options = { name: 'check', importModule, directory: cache, contentHash: 'f'.repeat(64) };
    runCachedScript(file, options).saveCache();
    expect(await readdir(cache)).toEqual([expect.stringContaining(`-${'f'.repeat(16)}-check.`)]);
    expect(runCachedScript(file, options).cacheUsed).toBe(true);
  });

  it('uses no cache directory that others can write', async () => {
    await mkdir(cache);
    await chmod(cache, 0o777);
    const file = await script('a');
    const run = runCachedScript<{ answer(): string }>(file, {
      name: 'check',
      importModule,
      directory: cache,
    });
    expect(run.exports.answer()).toBe('a');
    run.saveCache();
    expect(await readdir(cache)).toEqual([]);
  });

  it('gives a lazy module as a stand-in, loaded at its first use (an interop check of __esModule is none)', async () => {
    const probe = path.join(dir, 'probe.cjs');
    await writeFile(
      probe,
      'globalThis.__cosiProbeLoads = (globalThis.__cosiProbeLoads ?? 0) + 1;\nexports.value = 42;\n',
    );
    const file = path.join(dir, 'lazy.cjs');
    await writeFile(
      file,
      "const probe = require('./probe.cjs');\nexports.esm = probe.__esModule;\n" +
        "exports.use = () => probe.value;\nexports.path = require('node:path').sep;\n",
    );
    const loads = (): unknown => (globalThis as { __cosiProbeLoads?: number }).__cosiProbeLoads;
    const run = runCachedScript<{ esm: unknown; use(): number; path: string }>(file, {
      name: 'lazy',
      importModule,
      directory: cache,
      lazyBuiltins: ['./probe.cjs'],
    });
    expect(run.exports.esm).toBeUndefined();
    expect(run.exports.path).toBe(path.sep);
    expect(loads()).toBeUndefined();
    expect(run.exports.use()).toBe(42);
    expect(run.exports.use()).toBe(42);
    expect(loads()).toBe(1);
  });

  it('is made again by a run that reaches further than the one that made it, and only then', async () => {
    const file = await script('a');
    const options = { name: 'check', importModule, directory: cache };
    runCachedScript(file, options).saveCache(10);
    const [name] = await readdir(cache);
    const made = path.join(cache, name ?? '');
    const mtime = async (): Promise<number> => (await stat(made)).mtimeMs;
    const first = await mtime();
    // As far, or less far: the cache stands.
    const same = runCachedScript(file, options);
    expect(same.cacheUsed).toBe(true);
    same.saveCache(10);
    same.saveCache(3);
    expect(await mtime()).toBe(first);
    // Further: saved again, with the new reach.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const further = runCachedScript(file, options);
    expect(further.cacheUsed).toBe(true);
    further.saveCache(25);
    const second = await mtime();
    expect(second).toBeGreaterThan(first);
    const after = runCachedScript<{ answer(): string }>(file, options);
    expect(after.cacheUsed).toBe(true);
    expect(after.exports.answer()).toBe('a');
    after.saveCache(25);
    expect(await mtime()).toBe(second);
  });
  it("keeps the directory bounded: other installs' caches, oldest first, never its own", async () => {
    const file = await script('a');
    runCachedScript(file, { name: 'check', importModule, directory: cache }).saveCache();
    const own = await readdir(cache);
    // Some other install's caches, left by runs long ago.
    for (let i = 0; i < 450; i++) {
      const other = path.join(cache, `cli-script.cjs-${String(i).padStart(16, '0')}-x-check.v8c`);
      await writeFile(other, '');
      await utimes(other, 1_000_000 + i, 1_000_000 + i);
    }
    runCachedScript(file, { name: 'apply', importModule, directory: cache }).saveCache();
    const left = await readdir(cache);
    expect(left.length).toBeLessThanOrEqual(120);
    expect(left).toEqual(expect.arrayContaining(own));
    expect(left).not.toContain(`cli-script.cjs-${'0'.repeat(16)}-x-check.v8c`);
  });
});
