import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/**
 * What the API server refuses of `autoscaling/v2` HorizontalPodAutoscalers (k8s.io/kubernetes
 * `pkg/apis/autoscaling/validation`) that their OpenAPI passes.
 */

const at = (f: Finding) => [f.pointer, f.message];
const load = (text: string) => loadManifests([{ path: 'hpa.yaml', text }]).findings;

let n = 0;
const autoscaler = (spec: string, apiVersion = 'autoscaling/v2') =>
  `---\napiVersion: ${apiVersion}\nkind: HorizontalPodAutoscaler\nmetadata: { name: hpa${++n} }\nspec:\n  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: web }\n  maxReplicas: 10\n${spec}`;

describe("a HorizontalPodAutoscaler's metrics and behavior (ValidateHorizontalPodAutoscaler)", () => {
  it('takes the metrics and behavior the Kubernetes docs show', () => {
    expect(
      load(
        autoscaler(`  metrics:
    - type: Resource
      resource: { name: cpu, target: { type: Utilization, averageUtilization: 50 } }
    - type: Pods
      pods: { metric: { name: packets-per-second }, target: { type: AverageValue, averageValue: 1k } }
    - type: Object
      object:
        metric: { name: requests-per-second }
        describedObject: { apiVersion: networking.k8s.io/v1, kind: Ingress, name: main-route }
        target: { type: Value, value: 10k }
    - type: External
      external: { metric: { name: queue_messages_ready }, target: { type: AverageValue, averageValue: "30" } }
    - type: ContainerResource
      containerResource: { name: memory, container: app, target: { type: AverageValue, averageValue: 500Mi } }
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 300
      policies: [{ type: Percent, value: 100, periodSeconds: 15 }]
    scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: Max }
`) + autoscaler('  targetCPUUtilizationPercentage: 80\n', 'autoscaling/v1'),
      ),
    ).toEqual([]);
  });

  it('refuses a metric without its source or with two, and targets a source cannot use', () => {
    expect(
      load(
        autoscaler(`  metrics:
    - type: Resource
      pods: { metric: { name: rps }, target: { type: AverageValue, averageValue: "1" } }
    - type: Pods
      pods: { metric: { name: "a/b" }, target: { type: Average, value: "0" } }
    - type: Resource
      resource: { name: cpu, target: { type: Utilization, averageUtilization: 0, averageValue: 1 } }
    - type: External
      external: { metric: { name: q }, target: { type: Value, value: "1", averageValue: "1" } }
      object: { metric: { name: q }, describedObject: { kind: Service, name: s }, target: { type: Value, value: "1" } }
    - type: ContainerResource
      containerResource: { name: gpu, container: app, target: { type: Utilization, averageUtilization: 50 } }
`),
      ).map(at),
    ).toEqual([
      // One source, of another type: Go forbids extras only beside the right one.
      [
        '/spec/metrics/0/resource',
        'Required value: must populate information for the given metric source',
      ],
      ['/spec/metrics/1/pods/metric/name', `Invalid value: "a/b": may not contain '/'`],
      [
        '/spec/metrics/1/pods/target/averageValue',
        'Required value: must specify a positive target averageValue',
      ],
      [
        '/spec/metrics/1/pods/target/type',
        'Invalid value: "Average": must be either Utilization, Value, or AverageValue',
      ],
      ['/spec/metrics/1/pods/target/value', 'Invalid value: "0": must be positive'],
      [
        '/spec/metrics/2/resource/target/averageUtilization',
        'Invalid value: 0: must be greater than 0',
      ],
      [
        '/spec/metrics/2/resource/target/averageValue',
        'Forbidden: may not set both a target raw value and a target utilization',
      ],
      // Go checks the object source, the first present; the external one goes unchecked.
      ['/spec/metrics/3/object', 'Forbidden: must populate the given metric source only'],
      [
        '/spec/metrics/4/containerResource/name',
        'Invalid value: "gpu": must be a standard resource type or fully qualified',
      ],
      [
        '/spec/metrics/4/containerResource/name',
        'Invalid value: "gpu": must be a standard resource for containers',
      ],
    ]);
  });

  it('refuses an empty list of policies and periods or windows out of range', () => {
    expect(
      load(
        autoscaler(`  behavior:
    scaleUp: { stabilizationWindowSeconds: 4000, policies: [] }
    scaleDown:
      policies: [{ type: Pods, value: 0, periodSeconds: 3600 }]
`),
      ).map(at),
    ).toEqual([
      [
        '/spec/behavior/scaleUp/stabilizationWindowSeconds',
        'Invalid value: 4000: must be less than or equal to 3600',
      ],
      ['/spec/behavior/scaleUp/policies', 'Required value: must specify at least one Policy'],
      ['/spec/behavior/scaleDown/policies/0/value', 'Invalid value: 0: must be greater than zero'],
      [
        '/spec/behavior/scaleDown/policies/0/periodSeconds',
        'Invalid value: 3600: must be less than or equal to 1800',
      ],
    ]);
  });
});
