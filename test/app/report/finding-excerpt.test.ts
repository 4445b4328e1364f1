import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExcerptReader } from '../../../src/app/report/finding-excerpt.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-excerpt-'));
  await writeFile(path.join(dir, 'a.yaml'), 'one\ntwo\nthree\nfour\nfive\nsix\n');
  await writeFile(path.join(dir, 'long.yaml'), `${'x'.repeat(500)}\r\nshort\r\n`);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('finding excerpts', () => {
  it('shows two lines either side of the line, fewer at the start of the file', () => {
    const excerpt = createExcerptReader(dir);
    expect(excerpt('a.yaml', 4)).toEqual({
      first: 2,
      lines: ['two', 'three', 'four', 'five', 'six'],
    });
    expect(excerpt('a.yaml', 1)).toEqual({ first: 1, lines: ['one', 'two', 'three'] });
  });

  it('cuts a long line and reads CRLF files line by line', () => {
    const excerpt = createExcerptReader(dir)('long.yaml', 1);
    expect(excerpt?.lines[0]).toBe(`${'x'.repeat(200)}…`);
    expect(excerpt?.lines[1]).toBe('short');
  });

  it('gives nothing for no file, the standard input, a missing file or a line past the end', () => {
    const excerpt = createExcerptReader(dir);
    expect(excerpt('', 1)).toBeUndefined();
    expect(excerpt('<stdin>', 1)).toBeUndefined();
    expect(excerpt('gone.yaml', 1)).toBeUndefined();
    expect(excerpt('a.yaml', 99)).toBeUndefined();
    expect(excerpt('a.yaml', 0)).toBeUndefined();
  });
});
