import { describe, expect, it } from 'vitest';
import { requiredFieldsFor } from '../../../src/loaders/kubernetes/builtin-required-fields.js';
import {
  KUBERNETES_RELEASES,
  type KubernetesRelease,
} from '../../../src/loaders/kubernetes/kubernetes-release.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/**
 * The fields of built-in kinds each release requires: until 1.36 the OpenAPI `required` lists
 * name fields the API server's Go validation never asks for; 1.36's, made from its markers, are
 * used to correct them.
 */

const load = (text: string, kubernetesVersion: KubernetesRelease) =>
  loadManifests([{ path: 'app.yaml', text }], { kubernetesVersion });

/** Knative eventing's StatefulSet (`config/core/deployments/request-reply.yaml`), cut down. */
const STATEFUL_SET_WITHOUT_SERVICE_NAME = `apiVersion: apps/v1
kind: StatefulSet
metadata: { name: request-reply, namespace: knative-eventing }
spec:
  selector: { matchLabels: { app: request-reply } }
  template:
    metadata: { labels: { app: request-reply } }
    spec:
      containers: [{ name: request-reply, image: ko.example/request-reply }]
`;

const PRIORITY_CLASS_WITHOUT_VALUE = `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: { name: default-priority }
`;

/** The deny-all-ingress policy: no pod selector is every pod. */
const NETWORK_POLICY_WITHOUT_SELECTOR = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: { name: deny-ingress }
spec:
  policyTypes: [Ingress]
`;

describe('required fields of built-in kinds', () => {
  it('are those 1.36 still requires, for the older releases only', () => {
    expect(requiredFieldsFor('1.36').size).toBe(0);
    const fields = requiredFieldsFor('1.31');
    expect(fields.get('io.k8s.api.apps.v1.StatefulSetSpec')?.has('serviceName')).toBe(false);
    expect(fields.get('io.k8s.api.apps.v1.StatefulSetSpec')?.has('selector')).toBe(true);
    expect(fields.get('io.k8s.api.core.v1.Container')?.has('name')).toBe(true);
  });

  it.each(KUBERNETES_RELEASES)(
    'a StatefulSet without serviceName, a PriorityClass without value, a NetworkPolicy without podSelector pass in %s',
    (release) => {
      for (const text of [
        STATEFUL_SET_WITHOUT_SERVICE_NAME,
        PRIORITY_CLASS_WITHOUT_VALUE,
        NETWORK_POLICY_WITHOUT_SELECTOR,
      ]) {
        expect(load(text, release).findings).toEqual([]);
      }
    },
  );

  it.each(KUBERNETES_RELEASES)('a container without a name still fails in %s', (release) => {
    const { findings } = load(
      STATEFUL_SET_WITHOUT_SERVICE_NAME.replace('{ name: request-reply, image', '{ image'),
      release,
    );
    expect(findings.map((f) => [f.pointer, f.message])).toContainEqual([
      '/spec/template/spec/containers/0/name',
      'Required value',
    ]);
  });
});
