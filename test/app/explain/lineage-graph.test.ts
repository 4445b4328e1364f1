import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExplainIndex } from '../../../src/app/explain/explain-source.js';
import { lineageGraph, unfoldLineage } from '../../../src/app/explain/lineage-graph.js';
import { traceBack, type LineageNode } from '../../../src/app/explain/lineage.js';
import { explainSourceOf, runProject } from '../../../src/app/run-project.js';
import { versionKey, type VersionRef } from '../../../src/engine/record/run-record.js';

const root = resolve(import.meta.dirname, '../../..');

async function indexOf(dir: string): Promise<{ index: ExplainIndex; refs: VersionRef[] }> {
  const run = await runProject({ cwd: root, files: [dir], record: true, stable: true });
  const source = run.outcome && explainSourceOf(run.outcome, run.manifests.resources);
  if (!source) throw new Error(`${dir} did not run recorded`);
  const refs = source.resources.map(({ metadata: { namespace, type, id, version } }) => ({
    namespace,
    type,
    id,
    version,
  }));
  return { index: new ExplainIndex(source), refs };
}

/** Every node of a lineage tree. */
function nodes(node: LineageNode): LineageNode[] {
  return [node, ...node.edges.flatMap((e) => nodes(e.node))];
}

describe('the lineage graph of many versions', () => {
  // ping-pong never converges: two controllers feed each other, each version from the last of
  // the other, hundreds deep (deeper than a recursive walk of the whole tree can go).
  it.each([
    ['fixtures/vm-network', Infinity],
    ['fixtures/cli/ping-pong', 20],
  ])(
    'unfolds, for every resource of %s, into the tree explain traces (depth %s and 1)',
    async (dir, depth) => {
      const { index, refs } = await indexOf(dir);
      const graph = lineageGraph(index, refs);
      expect(graph.roots).toHaveLength(refs.length);
      let edges = 0;
      refs.forEach((ref, i) => {
        const at = graph.roots[i] as number;
        expect(graph.vertices[at]?.ref).toEqual(ref);
        expect(unfoldLineage(graph, at, depth)).toEqual(traceBack(index, ref, depth));
        expect(unfoldLineage(graph, at, 1)).toEqual(traceBack(index, ref, 1));
        edges += graph.vertices[at]?.edges.length ?? 0;
      });
      // Not a fixture where every resource is a manifest: the trees have edges to compare.
      expect(edges).toBeGreaterThan(refs.length / 2);
    },
  );

  it('holds each version once, however many trees share it', async () => {
    const { index, refs } = await indexOf('fixtures/vm-network');
    const graph = lineageGraph(index, refs);
    const keys = graph.vertices.map((v) => versionKey(v.ref));
    expect(new Set(keys).size).toBe(keys.length);
    // The VM and Host manifests feed many resources: their trees repeat them, the graph does not.
    const treeSizes = graph.roots.map((at) => nodes(unfoldLineage(graph, at)).length);
    expect(graph.vertices.length).toBeLessThan(treeSizes.reduce((a, b) => a + b, 0) - refs.length);
    // Giving the roots twice changes nothing but the roots.
    const twice = lineageGraph(index, [...refs, ...refs]);
    expect(twice.vertices).toHaveLength(graph.vertices.length);
    expect(twice.roots).toEqual([...graph.roots, ...graph.roots]);
  });
});
