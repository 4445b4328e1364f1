import { describe, expect, it } from 'vitest';
import { iterate, MAX_COLLECTION_SIZE } from '../../src/controllers/for-each-bindings.js';
import type { GraphNode } from '../../src/controllers/compiled-resource-graph.js';
import type { GraphExpression } from '../../src/controllers/template-rendering.js';

/** An expression that reads `scope[name]`: missing when the scope has no such key. */
function reading(name: string): GraphExpression {
  return {
    source: `schema.${name}`,
    location: 'rgd.yaml:1:1',
    references: ['schema'],
    evaluate: (scope) => (name in scope ? { value: scope[name] } : { missing: name }),
  };
}

function nodeWith(forEach: GraphNode['forEach']): GraphNode {
  return {
    id: 'web',
    type: 'ConfigMaps.v1',
    namespaced: true,
    template: {},
    fields: [],
    includeWhen: [],
    readyWhen: [],
    dependencies: [],
    ...(forEach === undefined ? {} : { forEach }),
  };
}

describe('iterate (forEach)', () => {
  it('binds nothing once for a resource without forEach', () => {
    expect(iterate(nodeWith(undefined), {})).toEqual({ state: 'done', value: [{}] });
  });

  it('binds every combination of the iterators, the first iterator outermost', () => {
    const node = nodeWith([
      { name: 'region', expression: reading('regions') },
      { name: 'tier', expression: reading('tiers') },
    ]);
    expect(iterate(node, { regions: ['eu', 'us'], tiers: ['a', 'b'] })).toEqual({
      state: 'done',
      value: [
        { region: 'eu', tier: 'a' },
        { region: 'eu', tier: 'b' },
        { region: 'us', tier: 'a' },
        { region: 'us', tier: 'b' },
      ],
    });
  });

  it('waits on an iterator whose data is not there yet', () => {
    const node = nodeWith([{ name: 'region', expression: reading('regions') }]);
    expect(iterate(node, {})).toMatchObject({ state: 'waiting' });
  });

  it("refuses an iterator that is not a list, and a product over kro's collection size", () => {
    const node = nodeWith([{ name: 'region', expression: reading('regions') }]);
    expect(iterate(node, { regions: 'eu' })).toMatchObject({
      state: 'error',
      message: expect.stringContaining('must be a list') as unknown,
    });
    const big = nodeWith([
      { name: 'a', expression: reading('as') },
      { name: 'b', expression: reading('bs') },
    ]);
    const items = Array.from({ length: 40 }, (_, i) => i);
    expect(40 * 40).toBeGreaterThan(MAX_COLLECTION_SIZE);
    expect(iterate(big, { as: items, bs: items })).toMatchObject({
      state: 'error',
      message: expect.stringContaining('over the maximum collection size') as unknown,
    });
  });
});
