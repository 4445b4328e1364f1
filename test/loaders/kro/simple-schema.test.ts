import { describe, expect, it } from 'vitest';
import { parseMarkers } from '../../../src/loaders/kro/simple-schema.js';
import { scanTemplateString } from '../../../src/loaders/kro/template-expressions.js';
import { kahnOrder } from '../../../src/loaders/kro/topological-order.js';

describe('SimpleSchema markers', () => {
  it('reads quoted values and bracketed values', () => {
    expect(parseMarkers('required=true description="a b \\"c\\"" default=[1, 2]')).toEqual({
      markers: [
        ['required', 'true'],
        ['description', 'a b "c"'],
        ['default', '[1, 2]'],
      ],
    });
  });

  it('refuses a marker without a value and an unclosed quote', () => {
    expect(parseMarkers('required')).toHaveProperty('error');
    expect(parseMarkers('description="open')).toHaveProperty('error');
  });
});

describe('template expressions', () => {
  it('tells a standalone expression from a string template', () => {
    expect(scanTemplateString('${schema.spec.replicas}')).toEqual({
      standalone: true,
      parts: [{ source: 'schema.spec.replicas', start: 0, end: 23 }],
    });
    expect(scanTemplateString('a-${x}-b')).toEqual({
      standalone: false,
      parts: ['a-', { source: 'x', start: 2, end: 6 }, '-b'],
    });
  });

  it('skips braces inside CEL strings, so ${"${x}"} escapes', () => {
    expect(scanTemplateString('${"${x}"}')).toEqual({
      standalone: true,
      parts: [{ source: '"${x}"', start: 0, end: 9 }],
    });
    expect(scanTemplateString('${{"a": 1}["a"]}')).toMatchObject({ standalone: true });
  });

  it('leaves strings without ${ alone and refuses an unclosed one', () => {
    expect(scanTemplateString('plain $ {x}')).toBeUndefined();
    expect(scanTemplateString('${x')).toHaveProperty('error');
  });
});

describe('dependency order', () => {
  it("is Kahn's order with ties broken by declaration", () => {
    const deps = new Map([
      ['service', new Set(['deployment'])],
      ['ingress', new Set(['service'])],
      ['config', new Set<string>()],
      ['deployment', new Set(['config'])],
    ]);
    expect(kahnOrder(['ingress', 'service', 'deployment', 'config'], deps)).toEqual({
      order: ['config', 'deployment', 'service', 'ingress'],
      cycle: [],
    });
  });

  it('takes the first declared of the ready ids at each step, also when one becomes ready late', () => {
    const deps = new Map([
      ['b', new Set(['c'])],
      ['d', new Set(['a'])],
    ]);
    expect(kahnOrder(['b', 'd', 'a', 'c', 'e'], deps).order).toEqual(['a', 'd', 'c', 'b', 'e']);
  });

  it('orders a long chain declared backwards', () => {
    const ids = Array.from({ length: 5_000 }, (_, i) => `r${i}`);
    const deps = new Map(ids.slice(0, -1).map((id, i) => [id, new Set([`r${i + 1}`])]));
    expect(kahnOrder(ids, deps)).toEqual({ order: [...ids].reverse(), cycle: [] });
  });

  it('leaves the resources of a cycle out of the order', () => {
    const deps = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['a'])],
      ['c', new Set<string>()],
    ]);
    expect(kahnOrder(['a', 'b', 'c'], deps)).toEqual({ order: ['c'], cycle: ['a', 'b'] });
  });
});
