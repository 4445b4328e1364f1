import { describe, expect, it } from 'vitest';
import type { ResourceNode } from '../../../src/app/explain/resource-lineage.js';
import type { GraphView } from '../../../src/cli/render/graph/graph-view.js';
import { renderGraphTree, TREE_MAX_DEPTH } from '../../../src/cli/render/graph/tree.js';

/** Links l0 <- l1 <- ... <- l(n-1), each written by Grow from the one before. */
function chain(n: number): GraphView {
  const resources: ResourceNode[] = Array.from({ length: n }, (_, i) => ({
    namespace: 'default',
    type: 'Links.test.cosi.dev',
    id: `l${i}`,
    owner: i === 0 ? '' : 'Grow',
    writer: i === 0 ? '' : 'Grow',
    phase: 'running',
    derivedFrom:
      i === 0
        ? []
        : [{ namespace: 'default', type: 'Links.test.cosi.dev', id: `l${i - 1}`, via: 'primary' }],
  }));
  return {
    controllers: [{ name: 'Grow', kind: 'qcontroller' }],
    types: ['Links.test.cosi.dev'],
    edges: [],
    sourceTypes: [],
    resources: [{ type: 'Links.test.cosi.dev', resources }],
  };
}

/** The lines of the Resources section. */
function resourceLines(out: string): string[] {
  const lines = out.split('\n').filter((l) => l !== '');
  return lines.slice(lines.indexOf('Resources') + 1);
}

describe('graph --resources -o tree on a deep lineage', () => {
  it('prints a 10,000-deep chain, each link once', () => {
    const lines = resourceLines(renderGraphTree(chain(10_000)));
    const ids = new Set(lines.map((l) => /\(default\/(l\d+)\)/.exec(l)?.[1]));
    expect(ids.size).toBe(10_000);
    expect(lines.length).toBeLessThan(10_000 + 10_000 / TREE_MAX_DEPTH + 1);
  });

  it('indents no deeper than the limit, so the output grows linearly with the chain', () => {
    const small = renderGraphTree(chain(1_000)).length;
    const large = renderGraphTree(chain(8_000)).length;
    expect(large / small).toBeLessThan(10);
    const widest = Math.max(...resourceLines(renderGraphTree(chain(1_000))).map((l) => l.length));
    expect(widest).toBeLessThan(3 * TREE_MAX_DEPTH + 100);
  });

  it('continues a cut subtree below, from the left margin, where it says so', () => {
    const lines = resourceLines(renderGraphTree(chain(TREE_MAX_DEPTH + 5)));
    const cut = lines.find((l) => l.endsWith('(continued below)'));
    expect(cut).toContain(`(default/l${TREE_MAX_DEPTH})`);
    const resumed = lines.findIndex((l) => l.endsWith('(continued from above)'));
    expect(lines[resumed]).toMatch(new RegExp(`^\\S.*\\(default/l${TREE_MAX_DEPTH}\\)`));
    expect(lines[resumed + 1]).toMatch(new RegExp(`^└─ .*\\(default/l${TREE_MAX_DEPTH + 1}\\)`));
    expect(lines).toHaveLength(TREE_MAX_DEPTH + 5 + 1);
  });
});
