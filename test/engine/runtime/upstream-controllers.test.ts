import { describe, expect, it } from 'vitest';
import type { DependencyGraph } from '../../../src/engine/runtime/dependency-graph.js';
import { upstreamControllers } from '../../../src/engine/runtime/upstream-controllers.js';

/** A graph from `controller: reads -> writes` lines, every input weak in namespace `ns`. */
function graph(spec: Record<string, { reads: string[]; writes: string[] }>): DependencyGraph {
  return {
    controllers: Object.keys(spec).map((name) => ({ name, kind: 'controller' as const })),
    types: [],
    edges: Object.entries(spec).flatMap(([controller, { reads, writes }]) => [
      ...reads.map((type) => ({ controller, namespace: 'ns', type, kind: 'weak' as const })),
      ...writes.map((type) => ({ controller, type, kind: 'exclusive' as const })),
    ]),
  };
}

const sorted = (set: ReadonlySet<string> | undefined): string[] => [...(set ?? [])].sort();

describe('upstream controllers', () => {
  it('are the writers of what a controller reads, through any number of controllers', () => {
    const up = upstreamControllers(
      graph({
        A: { reads: ['X'], writes: ['Y'] },
        B: { reads: ['Y'], writes: ['Z'] },
        C: { reads: ['Z', 'X'], writes: [] },
        D: { reads: [], writes: ['X'] },
      }),
    );
    expect(sorted(up.get('A'))).toEqual(['D']);
    expect(sorted(up.get('B'))).toEqual(['A', 'D']);
    expect(sorted(up.get('C'))).toEqual(['A', 'B', 'D']);
    expect(sorted(up.get('D'))).toEqual([]);
  });

  it('leave out the controller itself and those on a cycle with it', () => {
    const up = upstreamControllers(
      graph({
        // Reads what it writes (a status it keeps, a garbage collector).
        Self: { reads: ['S'], writes: ['S'] },
        // P and Q feed each other; R is fed by both and feeds P.
        P: { reads: ['Q', 'R'], writes: ['P'] },
        Q: { reads: ['P'], writes: ['Q'] },
        R: { reads: ['P'], writes: ['R'] },
        // Downstream of the cycle.
        Out: { reads: ['Q'], writes: [] },
      }),
    );
    expect(sorted(up.get('Self'))).toEqual([]);
    expect(sorted(up.get('P'))).toEqual([]);
    expect(sorted(up.get('Q'))).toEqual([]);
    expect(sorted(up.get('R'))).toEqual([]);
    expect(sorted(up.get('Out'))).toEqual(['P', 'Q', 'R']);
  });
});
