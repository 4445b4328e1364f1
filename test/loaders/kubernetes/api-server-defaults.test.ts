/**
 * The API server's Go defaults of built-in kinds, as a kro RGD's outputs are stored with them.
 */
import { describe, expect, it } from 'vitest';
import { withApiServerDefaults } from '../../../src/loaders/kubernetes/api-server-defaults.js';

const pod = (containers: unknown[], extra: Record<string, unknown> = {}) => ({
  template: { metadata: { labels: { app: 'x' } }, spec: { containers, ...extra } },
});

describe('withApiServerDefaults', () => {
  it('gives a Deployment its rollout, history and pod defaults', () => {
    const document = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      spec: {
        selector: {},
        ...pod([{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }]),
      },
    };
    const stored = withApiServerDefaults(document, 'apps', 'Deployment');
    expect(stored.spec).toMatchObject({
      replicas: 1,
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
      },
      template: {
        spec: {
          restartPolicy: 'Always',
          dnsPolicy: 'ClusterFirst',
          terminationGracePeriodSeconds: 30,
          schedulerName: 'default-scheduler',
          enableServiceLinks: true,
          securityContext: {},
          containers: [
            {
              imagePullPolicy: 'Always',
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
              ports: [{ containerPort: 80, protocol: 'TCP' }],
            },
          ],
        },
      },
    });
  });

  it('keeps what the object says, and gives a Recreate strategy no rollingUpdate', () => {
    const document = {
      spec: {
        replicas: 0,
        strategy: { type: 'Recreate' },
        ...pod([{ name: 'c', image: 'nginx:1.27', imagePullPolicy: 'Never' }], {
          dnsPolicy: 'None',
        }),
      },
    };
    const spec = withApiServerDefaults(document, 'apps', 'Deployment').spec as Record<
      string,
      unknown
    >;
    expect(spec.replicas).toBe(0);
    expect(spec.strategy).toEqual({ type: 'Recreate' });
    expect(spec.template).toMatchObject({
      spec: { dnsPolicy: 'None', containers: [{ imagePullPolicy: 'Never' }] },
    });
  });

  it.each([
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['registry:5000/team/nginx', 'Always'],
    ['registry:5000/team/nginx:1.2', 'IfNotPresent'],
    ['nginx@sha256:0123', 'IfNotPresent'],
  ])('pulls %s with imagePullPolicy %s', (image, policy) => {
    const document = { spec: { containers: [{ name: 'c', image }] } };
    withApiServerDefaults(document, '', 'Pod');
    expect(document.spec.containers[0]).toMatchObject({ imagePullPolicy: policy });
  });

  it('defaults probes, environment field references and volumes', () => {
    const document = {
      spec: {
        containers: [
          {
            name: 'c',
            image: 'app:1',
            readinessProbe: { httpGet: { port: 80 } },
            env: [{ name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
          },
        ],
        volumes: [{ name: 'scratch' }, { name: 'cfg', configMap: { name: 'cfg' } }],
      },
    };
    withApiServerDefaults(document, '', 'Pod');
    expect(document.spec.containers[0]).toMatchObject({
      readinessProbe: {
        httpGet: { port: 80, path: '/', scheme: 'HTTP' },
        timeoutSeconds: 1,
        periodSeconds: 10,
        successThreshold: 1,
        failureThreshold: 3,
      },
      env: [{ valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } }],
    });
    expect(document.spec.volumes).toEqual([
      { name: 'scratch', emptyDir: {} },
      { name: 'cfg', configMap: { name: 'cfg', defaultMode: 420 } },
    ]);
  });

  it('gives a Service its type, affinity, traffic policies, protocols and target ports', () => {
    const cluster = {
      spec: { ports: [{ port: 80 }, { port: 53, protocol: 'UDP', targetPort: 5353 }] },
    };
    withApiServerDefaults(cluster, '', 'Service');
    expect(cluster.spec).toEqual({
      type: 'ClusterIP',
      sessionAffinity: 'None',
      internalTrafficPolicy: 'Cluster',
      ports: [
        { port: 80, protocol: 'TCP', targetPort: 80 },
        { port: 53, protocol: 'UDP', targetPort: 5353 },
      ],
    });
    const balanced = { spec: { type: 'LoadBalancer', ports: [{ port: 443 }] } };
    withApiServerDefaults(balanced, '', 'Service');
    expect(balanced.spec).toMatchObject({
      externalTrafficPolicy: 'Cluster',
      allocateLoadBalancerNodePorts: true,
    });
    const external = { spec: { type: 'ExternalName', externalName: 'db.example.com' } };
    withApiServerDefaults(external, '', 'Service');
    expect(external.spec).not.toHaveProperty('internalTrafficPolicy');
  });

  it('gives Jobs, CronJobs, StatefulSets and DaemonSets theirs', () => {
    const job = {
      spec: { podFailurePolicy: { rules: [] }, ...pod([], { restartPolicy: 'Never' }) },
    };
    withApiServerDefaults(job, 'batch', 'Job');
    expect(job.spec).toMatchObject({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: 'Failed',
      template: { spec: { restartPolicy: 'Never' } },
    });
    const parallel = { spec: { parallelism: 3 } };
    withApiServerDefaults(parallel, 'batch', 'Job');
    expect(parallel.spec).not.toHaveProperty('completions');

    const cron = { spec: { schedule: '* * * * *' } };
    withApiServerDefaults(cron, 'batch', 'CronJob');
    expect(cron.spec).toMatchObject({
      concurrencyPolicy: 'Allow',
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    });

    const set = { spec: { volumeClaimTemplates: [{ spec: {} }] } };
    withApiServerDefaults(set, 'apps', 'StatefulSet');
    expect(set.spec).toMatchObject({
      replicas: 1,
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      volumeClaimTemplates: [{ spec: { volumeMode: 'Filesystem' } }],
    });

    const daemons = { spec: {} };
    withApiServerDefaults(daemons, 'apps', 'DaemonSet');
    expect(daemons.spec).toMatchObject({
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
    });
  });

  it('gives a NetworkPolicy its policy types and a Secret its type; leaves kinds it knows none of', () => {
    const egress = { spec: { egress: [] } };
    withApiServerDefaults(egress, 'networking.k8s.io', 'NetworkPolicy');
    expect(egress.spec).toEqual({ egress: [], policyTypes: ['Ingress', 'Egress'] });
    const secret: Record<string, unknown> = { data: {} };
    withApiServerDefaults(secret, '', 'Secret');
    expect(secret.type).toBe('Opaque');
    const map = { data: { a: '1' } };
    expect(withApiServerDefaults(structuredClone(map), '', 'ConfigMap')).toEqual(map);
  });
});
