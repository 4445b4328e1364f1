/**
 * Every relative link of README.md and docs/*.md resolves: the file or directory it names
 * exists and is one the package ships, and an anchor (`page.md#section`, `#section`) names a
 * heading of that page, as GitHub turns headings into anchors. Links inside code are not links.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { expect, it } from 'vitest';
import { PAGES, REPO } from './doc-blocks.js';
import { relativeLinksOf } from './doc-links.js';

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown page's headings, with GitHub's -1, -2 for repeated ones. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const text = readFileSync(file, 'utf8').replace(/^([ \t]*)```[\s\S]*?^\1```/gm, '');
  for (const [, heading] of text.matchAll(/^#{1,6} (.*)$/gm)) {
    const anchor = anchorOf(heading ?? '');
    const count = seen.get(anchor) ?? 0;
    seen.set(anchor, count + 1);
    anchors.add(count === 0 ? anchor : `${anchor}-${count}`);
  }
  return anchors;
}

/**
 * The top-level files and directories of the package: package.json `files` (its `!` exclusions
 * aside) and what npm always packs. Docs ship in the package, so their links must land there;
 * test/package/installed-package.test.ts follows them in the packed package itself, this
 * finds a link out of it without packing.
 */
const SHIPPED = new Set([
  ...(
    JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { files: string[] }
  ).files
    .filter((entry) => !entry.startsWith('!'))
    .map((entry) => entry.split('/')[0]),
  'README.md',
  'package.json',
]);

/** Every relative link of a page (see doc-links.ts). */
const linksOf = (page: string): string[] =>
  relativeLinksOf(readFileSync(path.join(REPO, page), 'utf8'));

it('checks the links of every page, and there are some', () => {
  expect(PAGES).toContain('README.md');
  expect(PAGES.length).toBeGreaterThan(10);
  expect(PAGES.flatMap(linksOf).length).toBeGreaterThan(30);
});

it.each(PAGES)('every relative link of %s resolves', (page) => {
  const broken: string[] = [];
  for (const link of linksOf(page)) {
    const [target = '', anchor] = link.split('#');
    const file =
      target === '' ? path.join(REPO, page) : path.resolve(REPO, path.dirname(page), target);
    if (!existsSync(file)) broken.push(`${link}: no such file`);
    else if (!SHIPPED.has(path.relative(REPO, file).split(path.sep)[0] ?? '')) {
      broken.push(`${link}: not in the package (package.json "files")`);
    } else if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(file).has(anchor)) {
      broken.push(`${link}: no heading with that anchor`);
    }
  }
  expect(broken).toEqual([]);
});

it('turns headings into the anchors GitHub makes', () => {
  expect(anchorOf('`cosi apply -f PATH...`')).toBe('cosi-apply--f-path');
  expect(anchorOf('CEL validation rules')).toBe('cel-validation-rules');
  expect(anchorOf('Where cosi departs from COSI and controller-runtime, on purpose')).toBe(
    'where-cosi-departs-from-cosi-and-controller-runtime-on-purpose',
  );
});
