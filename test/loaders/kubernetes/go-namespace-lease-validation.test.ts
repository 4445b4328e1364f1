import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/** `ValidateNamespace`'s finalizers and `ValidateLeaseSpec`, in the API server's words. */

const at = (f: Finding) => [f.pointer, f.message];
const load = (text: string) => loadManifests([{ path: 'app.yaml', text }]).findings;

describe("a Namespace's finalizers (validateFinalizerName)", () => {
  it('takes the standard finalizer and qualified ones', () => {
    expect(
      load(`apiVersion: v1
kind: Namespace
metadata: {name: ns}
spec: {finalizers: [kubernetes, example.com/cleanup]}
`),
    ).toEqual([]);
  });

  it('refuses one that is no qualified name, or has no domain and is not standard', () => {
    expect(
      load(`apiVersion: v1
kind: Namespace
metadata: {name: ns}
spec: {finalizers: ["bad finalizer", cleanup]}
`).map(at),
    ).toEqual([
      [
        '/spec/finalizers/0',
        "Invalid value: \"bad finalizer\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
      [
        '/spec/finalizers/0',
        'Invalid value: "bad finalizer": name is neither a standard finalizer name nor is it fully qualified',
      ],
      [
        '/spec/finalizers/1',
        'Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified',
      ],
    ]);
  });
});

describe("a Lease's spec (ValidateLeaseSpec)", () => {
  it('refuses a duration that is not positive and negative transitions', () => {
    expect(
      load(`apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: l}
spec: {holderIdentity: x, leaseDurationSeconds: 0, leaseTransitions: -1}
---
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: ok}
spec: {holderIdentity: x, leaseDurationSeconds: 15, leaseTransitions: 0}
`).map(at),
    ).toEqual([
      ['/spec/leaseDurationSeconds', 'Invalid value: 0: must be greater than 0'],
      ['/spec/leaseTransitions', 'Invalid value: -1: must be greater than or equal to 0'],
    ]);
  });
});

describe('metadata finalizers of the core group, apps and batch (validateKubeFinalizerName)', () => {
  it('refuses one without a domain that is not standard, and takes it on a custom kind of group', () => {
    expect(
      load(`apiVersion: v1
kind: ConfigMap
metadata: {name: c, finalizers: [my-finalizer, kubernetes, example.com/cleanup]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, finalizers: [foregroundDeletion, cleanup]}
spec:
  selector: {matchLabels: {app: d}}
  template:
    metadata: {labels: {app: d}}
    spec: {containers: [{name: c, image: nginx}]}
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: i, finalizers: [cleanup]}
spec: {controller: example.com/ingress}
`).map(at),
    ).toEqual([
      [
        '/metadata/finalizers/0',
        'Invalid value: "my-finalizer": name is neither a standard finalizer name nor is it fully qualified',
      ],
      [
        '/metadata/finalizers/1',
        'Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified',
      ],
    ]);
  });
});
