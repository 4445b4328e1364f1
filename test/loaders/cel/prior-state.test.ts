import { describe, expect, it } from 'vitest';
import { RecordedPriorState } from '../../../src/loaders/cel/prior-state.js';

const res = (file: string, key: string, spec: unknown) => ({
  key,
  resource: { spec },
  source: { file },
});

describe('a recorded prior state told what changed', () => {
  it('takes the whole load only when the changes are not enough', () => {
    const prior = new RecordedPriorState();
    let reads = 0;
    const load = [res('a.yaml', 'x', 1), res('a.yaml', 'y', 2), res('b.yaml', 'z', 3)];
    const all = () => {
      reads++;
      return load;
    };
    // The first load: no previous load to tell changes from.
    prior.replaceChanged(undefined, all, false);
    expect(reads).toBe(1);
    // a.yaml lost y and changed x: only a.yaml is looked at.
    prior.replaceChanged(new Map([['a.yaml', [res('a.yaml', 'x', 10)]]]), all, false);
    expect(reads).toBe(1);
    expect(prior.get('x')).toEqual({ spec: 10 });
    expect(prior.get('y')).toBeUndefined();
    expect(prior.get('z')).toEqual({ spec: 3 });
    // A file that is gone takes its resources with it.
    prior.replaceChanged(new Map([['b.yaml', []]]), all, false);
    expect(prior.get('z')).toBeUndefined();
    expect(reads).toBe(1);
  });

  it('keeps what a round with errors refused, until a round without errors', () => {
    const prior = new RecordedPriorState();
    prior.replaceChanged(undefined, () => [res('a.yaml', 'x', 1), res('a.yaml', 'y', 2)], false);
    // y's document was refused: its older spec stays.
    prior.replaceChanged(new Map([['a.yaml', [res('a.yaml', 'x', 5)]]]), () => [], true);
    expect(prior.get('y')).toEqual({ spec: 2 });
    expect(prior.get('x')).toEqual({ spec: 5 });
    // Fixed by removing y: the next clean round is the whole load, so y goes.
    let reads = 0;
    prior.replaceChanged(
      new Map([['a.yaml', [res('a.yaml', 'x', 6)]]]),
      () => {
        reads++;
        return [res('a.yaml', 'x', 6)];
      },
      false,
    );
    expect(reads).toBe(1);
    expect(prior.get('y')).toBeUndefined();
    expect(prior.size).toBe(1);
  });
});
