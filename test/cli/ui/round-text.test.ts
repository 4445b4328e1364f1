import { describe, expect, it } from 'vitest';
import { describeTrigger } from '../../../src/cli/ui/round-text.js';

describe('what started a watch round, in words', () => {
  it('says a deleted file removed, not changed, beside the files changed', () => {
    const round = (changed: string[], removed?: string[]) => ({
      trigger: 'manifests' as const,
      changed,
      ...(removed ? { removed } : {}),
    });
    expect(describeTrigger(round(['vms.yaml']))).toBe('vms.yaml changed');
    expect(describeTrigger(round(['old.yaml'], ['old.yaml']))).toBe('old.yaml removed');
    expect(describeTrigger(round(['a.yaml', 'old.yaml'], ['old.yaml']))).toBe(
      'a.yaml changed, old.yaml removed',
    );
    const four = ['a.yaml', 'b.yaml', 'c.yaml', 'd.yaml'];
    expect(describeTrigger(round(four, four))).toBe('4 files removed');
    expect(describeTrigger(round(four, ['a.yaml']))).toBe('4 files changed');
    expect(
      describeTrigger({
        trigger: 'restart',
        changed: ['helpers.ts'],
        removed: ['helpers.ts'],
        status: 'converged',
      }),
    ).toBe('helpers.ts removed: restarted on a fresh state');
  });
});
