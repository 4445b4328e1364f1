/**
 * docs/testing.md is where a controller author learns what a test project can do: every public
 * member of `TestProject` is named there (in backticks), so that one added, such as `now()` or
 * `step()` for timed behaviour, is not left to be found in the type declarations.
 */
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TestProject } from '../../src/testing/index.js';

/** Members the scenario runner and the assertions use, which a test has no reason to call. */
const PLUMBING = new Set(['applyFiles', 'absentPointer', 'lastReportIsOfSpan', 'pointer']);

describe('docs/testing.md', () => {
  it('names every public member of TestProject', async () => {
    const doc = await readFile(path.resolve(import.meta.dirname, '../../docs/testing.md'), 'utf8');
    const members = Object.getOwnPropertyNames(TestProject.prototype).filter(
      (name) => name !== 'constructor' && !PLUMBING.has(name),
    );
    expect(members.length).toBeGreaterThan(10);
    const unnamed = members.filter((name) => !new RegExp(`\`(project\\.)?${name}[(\`]`).test(doc));
    expect(unnamed).toEqual([]);
  });
});
