import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

const load = (text: string) => loadManifests([{ path: 'svc.yaml', text }]).findings;
const at = (f: Finding) => [f.line, f.col, f.pointer, f.message];
const service = (spec: string) =>
  `apiVersion: v1\nkind: Service\nmetadata: { name: web }\nspec:\n  selector: { app: a }\n${spec}`;

describe("a Service's traffic policy and node ports (validateServiceExternalTrafficPolicy, ValidateService)", () => {
  it('refuses an external traffic policy on a ClusterIP Service', () => {
    expect(
      load(
        service('  type: ClusterIP\n  externalTrafficPolicy: Local\n  ports: [{ port: 80 }]\n'),
      ).map(at),
    ).toEqual([
      [
        7,
        26,
        '/spec/externalTrafficPolicy',
        'Invalid value: "Local": may only be set for externally-accessible services',
      ],
    ]);
  });

  it('refuses a health check node port unless a LoadBalancer has the Local policy', () => {
    expect(
      load(
        service('  type: LoadBalancer\n  healthCheckNodePort: 30005\n  ports: [{ port: 80 }]\n'),
      ).map(at),
    ).toEqual([
      [
        7,
        24,
        '/spec/healthCheckNodePort',
        "Invalid value: 30005: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
      ],
    ]);
  });

  it('refuses a node port used twice for one protocol', () => {
    expect(
      load(
        service(
          '  type: NodePort\n  ports:\n  - { name: a, port: 80, nodePort: 30001 }\n  - { name: b, port: 81, nodePort: 30001 }\n',
        ),
      ).map(at),
    ).toEqual([[9, 36, '/spec/ports/1/nodePort', 'Duplicate value: 30001']]);
  });

  it('takes the policy where the Service is reachable from outside, and one node port per protocol', () => {
    expect(
      load(
        service(
          '  type: ClusterIP\n  externalIPs: [192.0.2.10]\n  externalTrafficPolicy: Local\n  ports: [{ port: 80 }]\n',
        ),
      ),
    ).toEqual([]);
    expect(
      load(
        service(
          '  type: LoadBalancer\n  externalTrafficPolicy: Local\n  healthCheckNodePort: 30005\n  ports:\n  - { name: a, port: 53, nodePort: 30053, protocol: TCP }\n  - { name: b, port: 53, nodePort: 30053, protocol: UDP }\n',
        ),
      ),
    ).toEqual([]);
  });
});

describe("a Service's load balancer fields (ValidateService, validateLoadBalancerClassField)", () => {
  it('refuses load balancer fields on another type and an affinity config without ClientIP', () => {
    expect(
      load(
        service(
          '  loadBalancerClass: example.com/lb\n  allocateLoadBalancerNodePorts: false\n  sessionAffinity: None\n  sessionAffinityConfig: {clientIP: {timeoutSeconds: 100}}\n  ports: [{ port: 80 }]\n',
        ),
      ).map(at),
    ).toEqual([
      [
        6,
        22,
        '/spec/loadBalancerClass',
        "Forbidden: may only be used when `type` is 'LoadBalancer'",
      ],
      [
        7,
        34,
        '/spec/allocateLoadBalancerNodePorts',
        "Forbidden: may only be used when `type` is 'LoadBalancer'",
      ],
      [
        9,
        26,
        '/spec/sessionAffinityConfig',
        'Forbidden: must not be set when session affinity is None',
      ],
    ]);
  });

  it('refuses a load balancer class that is no qualified name', () => {
    expect(
      load(
        service(
          '  type: LoadBalancer\n  loadBalancerClass: "not qualified!"\n  ports: [{ port: 80 }]\n',
        ),
      ).map(at),
    ).toEqual([
      [
        7,
        22,
        '/spec/loadBalancerClass',
        "Invalid value: \"not qualified!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
    ]);
  });

  it('takes the load balancer fields on a LoadBalancer and an affinity config with ClientIP', () => {
    expect(
      load(
        service(
          '  type: LoadBalancer\n  loadBalancerClass: example.com/lb\n  allocateLoadBalancerNodePorts: false\n  sessionAffinity: ClientIP\n  sessionAffinityConfig: {clientIP: {timeoutSeconds: 100}}\n  ports: [{ port: 80 }]\n',
        ),
      ),
    ).toEqual([]);
  });
});
