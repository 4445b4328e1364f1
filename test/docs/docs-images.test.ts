/**
 * The pictures README and docs/ show are made by scripts/docs-images.mjs from the example project: the
 * graph's SVG must be what `cosi graph -o svg` draws today, and every picture the pages link to
 * must be there (the PNGs are screenshots of the report in the real browser, not compared).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain script, no declarations.
import { graphSvg } from '../../scripts/docs-images.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('the pictures in the docs', () => {
  it('has the graph of the example project as cosi graph -o svg draws it today', () => {
    const committed = readFileSync(path.join(ROOT, 'docs/images/vm-network-graph.svg'), 'utf8');
    expect(committed).toBe((graphSvg as () => string)());
  }, 120_000);

  it('links the docs to pictures that are there, the screenshots small PNGs', () => {
    const pages = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).map((f) => `docs/${f}`)];
    const linked = pages
      .filter((page) => page.endsWith('.md'))
      .flatMap((page) => {
        const text = readFileSync(path.join(ROOT, page), 'utf8');
        return [...text.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) =>
          path.posix.join(path.posix.dirname(page), m[1] as string),
        );
      });
    expect(new Set(linked)).toEqual(
      new Set([
        'docs/images/vm-network-graph.svg',
        'docs/images/report.png',
        'docs/images/report-invalid.png',
      ]),
    );
    for (const file of linked) {
      const at = path.join(ROOT, file);
      expect(existsSync(at), file).toBe(true);
      if (!file.endsWith('.png')) continue;
      expect(readFileSync(at).subarray(1, 4).toString(), file).toBe('PNG');
      expect(statSync(at).size, file).toBeLessThan(400 * 1024);
    }
  });
});
