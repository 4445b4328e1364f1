import { describe, expect, it } from 'vitest';
import { createDefinition } from '../../../src/engine/resource/definition.js';
import { compileOrder } from '../../../src/loaders/kro/rgd-order.js';

/** An RGD of `kind` whose resources are of the kinds `uses` (kro.run/v1alpha1). */
function rgd(kind: string, uses: string[]) {
  return {
    name: kind,
    definition: createDefinition({
      type: `${kind}s.kro.run`,
      kubernetes: { apiVersion: 'kro.run/v1alpha1', kind, namespaced: true },
    }),
    value: {
      spec: {
        resources: uses.map((used, i) => ({
          id: `r${i}`,
          template: { apiVersion: 'kro.run/v1alpha1', kind: used },
        })),
      },
    },
  };
}

describe('the order the RGDs of a load are compiled in', () => {
  it('puts an RGD after the RGDs whose kinds its resources are', () => {
    const rgds = [rgd('Top', ['Middle']), rgd('Middle', ['Leaf', 'ConfigMap']), rgd('Leaf', [])];
    expect(compileOrder(rgds).map((r) => r.name)).toEqual(['Leaf', 'Middle', 'Top']);
  });

  it('keeps the order given otherwise, and around a cycle', () => {
    const rgds = [rgd('A', ['B']), rgd('B', ['A']), rgd('C', [])];
    expect(compileOrder(rgds).map((r) => r.name)).toEqual(['B', 'A', 'C']);
    const plain = [rgd('X', []), rgd('Y', [])];
    expect(compileOrder(plain).map((r) => r.name)).toEqual(['X', 'Y']);
  });
});
