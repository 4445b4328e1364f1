/** `.cosiignore`, read as git reads a `.gitignore` (`ignore-file.ts`). */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readIgnoreFile } from '../../src/loaders/ignore-file.js';

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

  it('reads no pattern when there is no file', async () => {
    expect(await readIgnoreFile(dir)).toEqual([]);
  });
});
