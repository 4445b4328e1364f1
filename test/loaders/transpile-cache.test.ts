import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type * as Jiti from 'jiti';
import { withTranspileCache } from '../../src/loaders/transpile-cache.js';
import { textHash } from '../../src/loaders/text-hash.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-transpile-cache-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A transpiler that upper-cases, and counts its calls. */
function counting(fail = false) {
  const calls: string[] = [];
  const transpile = (options: Jiti.TransformOptions): Jiti.TransformResult => {
    calls.push(options.source);
    return fail ? { code: '', error: new Error('bad') } : { code: options.source.toUpperCase() };
  };
  return { calls, transpile };
}

const file = (source: string, filename = '/p/cosi.config.ts'): Jiti.TransformOptions => ({
  source,
  filename,
  ts: true,
});

describe('transpiled config files kept between runs', () => {
  it('transpiles a file once, and again when its text, name or settings change', () => {
    const first = counting();
    const kept = withTranspileCache(first.transpile, dir, 'jiti@2');
    expect(kept(file('a')).code).toBe('A');
    // A later run (a new process): its own transpiler, the same directory.
    const later = counting();
    const again = withTranspileCache(later.transpile, dir, 'jiti@2');
    expect(again(file('a')).code).toBe('A');
    expect(later.calls).toEqual([]);
    expect(again(file('b')).code).toBe('B');
    expect(again(file('a', '/p/other.ts')).code).toBe('A');
    expect(again({ ...file('a'), ts: false }).code).toBe('A');
    expect(later.calls).toEqual(['b', 'a', 'a']);
    // Another transpiler version keeps its own.
    const upgraded = counting();
    withTranspileCache(upgraded.transpile, dir, 'jiti@3')(file('a'));
    expect(upgraded.calls).toEqual(['a']);
  });

  it('keeps one entry per file and settings: an edited file replaces its entry', async () => {
    const { transpile, calls } = counting();
    const kept = withTranspileCache(transpile, dir, 'jiti@2');
    for (const source of ['a', 'b', 'c']) kept(file(source));
    kept(file('a', '/p/types.ts'));
    expect(await readdir(dir)).toHaveLength(2);
    expect(kept(file('c')).code).toBe('C');
    expect(kept(file('a', '/p/types.ts')).code).toBe('A');
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });

  it('transpiles again when an entry of that name holds another source (a hash collision)', async () => {
    const { transpile, calls } = counting();
    const kept = withTranspileCache(transpile, dir, 'jiti@2');
    kept(file('a'));
    const [entry] = await readdir(dir);
    const stored = JSON.parse(await readFile(path.join(dir, entry ?? ''), 'utf8')) as object;
    await writeFile(
      path.join(dir, entry ?? ''),
      JSON.stringify({ ...stored, source: 'other', code: 'WRONG' }),
    );
    expect(kept(file('a')).code).toBe('A');
    expect(calls).toEqual(['a', 'a']);
  });

  it('keeps no failed transpile, and nothing without a directory', async () => {
    const failing = counting(true);
    const kept = withTranspileCache(failing.transpile, dir, 'jiti@2');
    expect(kept(file('a')).error).toBeInstanceOf(Error);
    expect(kept(file('a')).error).toBeInstanceOf(Error);
    expect(failing.calls).toEqual(['a', 'a']);
    expect(await readdir(dir)).toEqual([]);
    const plain = counting();
    const none = withTranspileCache(plain.transpile, undefined, 'jiti@2');
    none(file('a'));
    none(file('a'));
    expect(plain.calls).toEqual(['a', 'a']);
  });

  it('a broken entry is transpiled again', async () => {
    const { transpile, calls } = counting();
    const kept = withTranspileCache(transpile, dir, 'jiti@2');
    kept(file('a'));
    const [entry] = await readdir(dir);
    await writeFile(path.join(dir, entry ?? ''), '{"code":');
    expect(kept(file('a')).code).toBe('A');
    expect(calls).toEqual(['a', 'a']);
  });
});

describe('textHash', () => {
  it('is 16 hex digits, the same for the same text, different for near texts', () => {
    expect(textHash('cosi')).toMatch(/^[0-9a-f]{16}$/);
    expect(textHash('cosi')).toBe(textHash('cosi'));
    const names = new Set(
      ['', 'a', 'b', 'ab', 'ba', 'cosi', 'cosj', 'x'.repeat(1000)].map(textHash),
    );
    expect(names.size).toBe(8);
  });
});
