import { describe, expect, it } from 'vitest';
import { customConditions, libraryCondition } from '../../src/controllers/custom-conditions.js';
import type {
  ExpressionOutcome,
  GraphExpression,
} from '../../src/controllers/template-rendering.js';

/** kro's stamping of custom conditions (pkg/controller/instance/status.go stampAuthorConditions). */

const entry = (source: string, outcome: ExpressionOutcome): GraphExpression => ({
  source,
  location: 'rgd.yaml:1:1',
  references: [],
  evaluate: () => outcome,
});
const condition = (type: string, status: string) =>
  libraryCondition({ type, status, reason: '', message: '' });
const scope = { schema: { spec: {} } };

describe('customConditions', () => {
  it("keeps lastTransitionTime while the status is unchanged, else it is now's", () => {
    const previous = [
      {
        type: 'Same',
        status: 'True',
        lastTransitionTime: '2025-01-01T00:00:00Z',
        observedGeneration: 1,
      },
      {
        type: 'Flipped',
        status: 'True',
        lastTransitionTime: '2025-01-01T00:00:00Z',
        observedGeneration: 1,
      },
    ];
    const { conditions, problems } = customConditions(
      [
        entry('a', { value: condition('Same', 'True') }),
        entry('b', { value: condition('Flipped', 'False') }),
      ],
      scope,
      [],
      previous,
      { generation: 2, now: '2025-01-01T00:01:00Z' },
    );
    expect(problems).toEqual([]);
    expect(conditions).toEqual([
      {
        type: 'Same',
        status: 'True',
        lastTransitionTime: '2025-01-01T00:00:00Z',
        observedGeneration: 2,
      },
      {
        type: 'Flipped',
        status: 'False',
        lastTransitionTime: '2025-01-01T00:01:00Z',
        observedGeneration: 2,
      },
    ]);
  });

  it('drops types that are no longer given after a full evaluation, keeps them when one is pending', () => {
    const previous = [
      { type: 'Gone', status: 'True', lastTransitionTime: 't0', observedGeneration: 1 },
    ];
    const stamp = { generation: 2, now: 't1' };
    const full = customConditions(
      [entry('a', { value: condition('A', 'True') })],
      scope,
      [],
      previous,
      stamp,
    );
    expect(full.conditions.map((c) => c.type)).toEqual(['A']);
    const pending = customConditions(
      [entry('a', { value: condition('A', 'True') }), entry('b', { missing: 'no such key: x' })],
      scope,
      [],
      previous,
      stamp,
    );
    expect(pending.problems).toEqual([]);
    expect(pending.conditions.map((c) => c.type)).toEqual(['A', 'Gone']);
  });

  it('drops an entry that fails or gives no condition, and says why', () => {
    const { conditions, problems } = customConditions(
      [
        entry("'x'", { value: 'x' }),
        entry('bad', {
          error: 'runtime.newCondition: status must be one of True, False, Unknown (got "Yes")',
        }),
        entry('good', { value: [condition('Good', 'True')] }),
      ],
      scope,
      [],
      undefined,
      { generation: 1, now: 't' },
    );
    expect(conditions.map((c) => c.type)).toEqual(['Good']);
    expect(problems).toEqual([
      "condition ${'x'} (rgd.yaml:1:1) must return runtime.newCondition(...) or a list of them, got string",
      'condition ${bad} (rgd.yaml:1:1): runtime.newCondition: status must be one of True, False, Unknown (got "Yes")',
    ]);
  });

  it("gives the entries schema with kro's built-in conditions as its status", () => {
    let seen: unknown;
    const probe: GraphExpression = {
      ...entry('probe', { value: condition('P', 'True') }),
      evaluate: (s) => {
        seen = s.schema;
        return { value: condition('P', 'True') };
      },
    };
    customConditions(
      [probe],
      { schema: { spec: { a: 1 }, status: { conditions: [{ type: 'Author' }] } } },
      [{ type: 'Ready', status: 'False', reason: 'NotReady', message: 'm', observedGeneration: 1 }],
      undefined,
      { generation: 1, now: 't' },
    );
    expect(seen).toEqual({
      spec: { a: 1 },
      status: {
        conditions: [{ type: 'Ready', status: 'False', reason: 'NotReady', message: 'm' }],
      },
    });
  });
});
