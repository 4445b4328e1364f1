import { describe, expect, it } from 'vitest';
import { compileGraphExpression } from '../../../src/loaders/kro/graph-cel.js';

/** What one expression of a ResourceGraphDefinition evaluates to, with `schema` bound. */
function outcome(source: string, schema: unknown = {}): unknown {
  const compiled = compileGraphExpression(source);
  if ('error' in compiled) throw new Error(compiled.error);
  return compiled.evaluate({ schema });
}

/** kro sets no cost limit: the message says the limit is cosi's. */
const LIMIT =
  "the expression's evaluation cost exceeds cosi's limit of 1000000 (the API server's per-rule limit; kro sets none, and would keep evaluating it)";

const TWENTY = `[${Array.from({ length: 20 }, (_, i) => i + 1).join(', ')}]`;

describe("the cost of a ResourceGraphDefinition's expressions", () => {
  it('stops comprehensions nested over literal lists at the per-call limit', () => {
    // 20^5 = 3.2 million passes of the innermost body: far over the limit of 1000000.
    const source = `${TWENTY}.all(a, ${TWENTY}.all(b, ${TWENTY}.all(c, ${TWENTY}.all(d, ${TWENTY}.all(e, a + b + c + d + e > 0)))))`;
    expect(outcome(source)).toEqual({
      error: LIMIT,
    });
  });

  it("stops comprehensions nested over an instance's list, and map building lists", () => {
    const schema = { spec: { items: Array.from({ length: 2000 }, (_, i) => `item-${i}`) } };
    expect(
      outcome('schema.spec.items.exists(a, schema.spec.items.exists(b, a + b == "none"))', schema),
    ).toEqual({ error: LIMIT });
    expect(
      outcome('size(schema.spec.items.map(a, schema.spec.items.map(b, a + b)))', schema),
    ).toEqual({ error: LIMIT });
  });

  it('evaluates comprehensions of a real size as before', () => {
    expect(outcome('[1, 2, 3].map(x, x * 2)')).toEqual({ value: [2, 4, 6] });
    expect(outcome(`${TWENTY}.all(a, ${TWENTY}.all(b, a + b > 0))`)).toEqual({ value: true });
    expect(outcome('cel.bind(n, schema.spec.n, n * n)', { spec: { n: 7 } })).toEqual({ value: 49 });
    expect(
      outcome('schema.spec.items.filter(i, i.startsWith("a")).size()', {
        spec: { items: ['ab', 'b', 'ac'] },
      }),
    ).toEqual({ value: 2 });
  });
});
