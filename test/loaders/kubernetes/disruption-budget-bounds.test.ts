import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

const load = (text: string) => loadManifests([{ path: 'pdb.yaml', text }]).findings;
const at = (f: Finding) => [f.line, f.col, f.pointer, f.message];
const pdb = (bound: string) =>
  `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web}\nspec:\n  ${bound}\n  selector: {matchLabels: {app: web}}\n`;

describe("a PodDisruptionBudget's bounds (ValidatePodDisruptionBudgetSpec)", () => {
  it('refuses a percentage without its %', () => {
    expect(load(pdb('minAvailable: "50"')).map(at)).toEqual([
      [
        5,
        17,
        '/spec/minAvailable',
        "Invalid value: \"50\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      ],
    ]);
  });

  it('refuses a percentage above 100%', () => {
    expect(load(pdb('maxUnavailable: 150%')).map(at)).toEqual([
      [5, 19, '/spec/maxUnavailable', 'Invalid value: "150%": must not be greater than 100%'],
    ]);
  });

  it('refuses a negative count', () => {
    expect(load(pdb('minAvailable: -1')).map(at)).toEqual([
      [5, 17, '/spec/minAvailable', 'Invalid value: -1: must be greater than or equal to 0'],
    ]);
  });

  it('takes counts and percentages up to 100%', () => {
    for (const bound of [
      'minAvailable: 0',
      'minAvailable: 100%',
      'maxUnavailable: 1',
      'maxUnavailable: 0%',
    ]) {
      expect(load(pdb(bound))).toEqual([]);
    }
  });
});
