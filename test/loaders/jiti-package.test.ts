import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jitiPackage } from '../../src/loaders/jiti-package.js';

describe('jitiPackage', () => {
  it("finds the jiti Node's resolution finds, and its version", () => {
    const manifest = createRequire(import.meta.url).resolve('jiti/package.json');
    const { root, version } = jitiPackage();
    expect(root).toBe(path.dirname(manifest));
    expect(version).toBe(
      (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version,
    );
    expect(jitiPackage()).toBe(jitiPackage());
  });
});
