/**
 * docs/api.md is the package's reference, generated from its barrels: it must say what the code
 * exports today, and every exported name must say what it is.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain script, no declarations.
import { apiReference, undocumentedExports } from '../../scripts/api-reference.mjs';

describe('docs/api.md', () => {
  it('is what scripts/api-reference.mjs generates from the barrels today', async () => {
    const committed = await readFile(new URL('../../docs/api.md', import.meta.url), 'utf8');
    expect(committed).toBe((apiReference as () => string)());
  }, 120_000);

  it('leaves no exported name without a doc comment', () => {
    expect((undocumentedExports as () => string[])()).toEqual([]);
  }, 120_000);
});
