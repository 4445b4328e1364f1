import { describe, expect, it } from 'vitest';
import { headerLine } from '../../../src/cli/ui/header-line.js';
import { describeTrigger } from '../../../src/cli/ui/round-text.js';
import type { RoundView } from '../../../src/cli/ui/round-view.js';

type HeaderRound = Pick<RoundView, 'number' | 'trigger' | 'changed' | 'status' | 'reason'>;

const failing: HeaderRound = {
  number: 8,
  trigger: 'manifests',
  changed: ['vms.yaml'],
  status: 'failing',
  reason: 'controllers kept failing',
};

const text = (round: HeaderRound, width: number, paused = false, pending: string[] = []) =>
  headerLine(round, { paused, pending }, width)
    .map((p) => p.text)
    .join('');

describe('the header line', () => {
  it('is whole when it fits', () => {
    expect(text(failing, 120)).toBe(
      'cosi watch  round 8  vms.yaml changed  failing (controllers kept failing)',
    );
  });

  it('cuts the trigger before the verdict on a narrow terminal', () => {
    expect(text(failing, 66)).toBe(
      'cosi watch  round 8  vms.yaml…  failing (controllers kept failing)',
    );
  });

  it('drops the trigger, then the name, and keeps the round and the verdict first', () => {
    expect(text(failing, 56)).toBe('cosi watch  round 8  failing (controllers kept failing)');
    expect(text(failing, 40)).toMatch(/^round 8 {2}failing/);
    expect(text(failing, 20)).toMatch(/^round 8 {2}failing/);
  });

  it('counts many changed files instead of naming them all', () => {
    const many = { ...failing, status: 'converged' as const, changed: ['a', 'b', 'c', 'd', 'e'] };
    expect(text(many, 120)).toBe('cosi watch  round 8  5 files changed  converged');
  });

  it('says that changes wait while paused', () => {
    const round = { ...failing, status: 'converged' as const };
    expect(text(round, 120, true)).toBe(
      'cosi watch  round 8  vms.yaml changed  converged [paused]',
    );
    expect(text(round, 120, true, ['hosts.yaml', 'vms.yaml'])).toBe(
      'cosi watch  round 8  vms.yaml changed  converged [paused: 2 files changed]',
    );
    // The verdict and the pause stay on a narrow terminal.
    expect(text(round, 40, true, ['hosts.yaml', 'vms.yaml'])).toBe(
      'round 8  converged [paused: 2 files changed]',
    );
  });
});

describe('the header line while the next round runs', () => {
  const round = { ...failing, status: 'converged' as const };
  const running = (width: number, paused = false) =>
    headerLine(round, { paused, running: { number: 9, seconds: 12 } }, width)
      .map((p) => p.text)
      .join('');

  it('says which round runs and for how long, after the verdict of the one shown', () => {
    expect(running(120)).toBe(
      'cosi watch  round 8  vms.yaml changed  converged [round 9 running 12s]',
    );
  });

  it('keeps it on a narrow terminal, as the pause is kept', () => {
    expect(running(40)).toBe('round 8  converged [round 9 running 12s]');
  });
});

describe('the trigger of a round after the config changed', () => {
  it('says restarted when the restart happened', () => {
    expect(
      describeTrigger({ trigger: 'restart', changed: ['placement.ts'], status: 'converged' }),
    ).toBe('placement.ts changed: restarted on a fresh state');
  });

  it('says only what changed when the config stopped loading: nothing restarted', () => {
    expect(
      describeTrigger({ trigger: 'restart', changed: ['placement.ts'], status: 'error' }),
    ).toBe('placement.ts changed');
    expect(
      describeTrigger({ trigger: 'restart', changed: ['cosi.config.ts'], status: 'not-applied' }),
    ).toBe('cosi.config.ts changed');
  });
});
