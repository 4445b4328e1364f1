import { describe, expect, it } from 'vitest';
import { kubernetesFinalizer } from '../../src/app/printed-finalizers.js';
import { qualifiedNameProblems } from '../../src/loaders/kubernetes/label-syntax.js';

describe('kubernetesFinalizer', () => {
  it("qualifies a cosi controller's finalizer in cosi's domain, as the API server takes it", () => {
    expect(kubernetesFinalizer('GarbageCollector')).toBe('cosi.dev/GarbageCollector');
    const kro = kubernetesFinalizer('ResourceGraph(webapp.kro.run)');
    expect(kro).toBe('cosi.dev/ResourceGraph-webapp.kro.run');
    const long = kubernetesFinalizer(`${'x'.repeat(70)} done`);
    for (const name of [kro, long, kubernetesFinalizer('vm.backup'), kubernetesFinalizer('((')]) {
      expect(qualifiedNameProblems(name)).toEqual([]);
    }
  });

  it('leaves a qualified or standard finalizer as it is', () => {
    for (const name of [
      'kro.run/finalizer',
      'example.com/cleanup',
      'foregroundDeletion',
      'orphan',
    ]) {
      expect(kubernetesFinalizer(name)).toBe(name);
    }
  });
});
