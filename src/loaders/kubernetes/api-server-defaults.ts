/**
 * The defaults the API server gives a built-in kind's object when it stores it: Go's defaulting
 * functions (`SetDefaults_Deployment`, `SetDefaults_Service`, `SetDefaults_PodSpec`,
 * `SetDefaults_Container`, ... in `pkg/apis/<group>/v1/defaults.go`), which the OpenAPI schema
 * of a built-in kind does not carry. A kro RGD reads its outputs as the cluster stored them, so
 * `${service.spec.type}` is `ClusterIP` and `${deploy.spec.strategy.type}` `RollingUpdate`.
 *
 * Only what the API server sets from the object itself is set: nothing it allocates (a Service's
 * `clusterIP`, a node port) and no status.
 */

import type { KubernetesKind } from '../../engine/resource/definition.js';
import { isPlainObject } from '../manifest-document.js';
import { CONTAINER_LISTS, podSpecPath, valueAtPath } from './pod-spec-paths.js';

type Json = Record<string, unknown>;

/** Sets each field of `defaults` that `object` lacks (or holds `null` or `""`), in place. */
function fill(object: Json, defaults: Json): void {
  for (const [key, value] of Object.entries(defaults)) {
    const current = object[key];
    if (current === undefined || current === null || current === '') object[key] = value;
  }
}

/** The object at `key` of `object`, made (empty) when it has none; `undefined` if not an object. */
function child(object: Json, key: string): Json | undefined {
  if (object[key] === undefined || object[key] === null) object[key] = {};
  const value = object[key];
  return isPlainObject(value) ? value : undefined;
}

/** The objects of a list, skipping what is not one. */
function objects(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

/**
 * Applies the API server's defaults of a built-in `group`/`kind` to `document` (a copy the caller
 * owns), in place, and returns it. A kind it knows no defaults of is returned as it is.
 */
export function withApiServerDefaults(document: Json, group: string, kind: string): Json {
  const spec = isPlainObject(document.spec) ? document.spec : undefined;
  const specDefaults = SPEC_DEFAULTS[`${group}/${kind}`];
  if (spec !== undefined && specDefaults !== undefined) specDefaults(spec);
  if (group === '' && kind === 'Secret') fill(document, { type: 'Opaque' });
  const podAt = podSpecPath(group, kind);
  const pod = podAt === undefined ? undefined : valueAtPath(document, podAt);
  if (isPlainObject(pod)) podSpecDefaults(pod);
  return document;
}

/**
 * A resource's spec (its document's top-level fields but `apiVersion`, `kind` and `metadata`) as
 * the API server stores the object of a built-in kind: a copy with the Go defaults, so that what
 * cosi prints of it (its table's columns, `-o yaml`) is what `kubectl get` prints of the applied
 * object: a Service port's `TCP`, a Deployment's 1 replica. A custom resource's spec (whose CRD
 * defaults are in it already), or a built-in kind's that has no defaults, is returned as it is.
 */
export function withStoredDefaults(spec: unknown, kind: KubernetesKind | undefined): unknown {
  if (kind === undefined || !isPlainObject(spec)) return spec;
  const slash = kind.apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : kind.apiVersion.slice(0, slash);
  if (!hasDefaults(group, kind.kind)) return spec;
  return withApiServerDefaults(structuredClone(spec), group, kind.kind);
}

/** Whether the API server defaults anything of a built-in `group`/`kind`'s objects. */
function hasDefaults(group: string, kind: string): boolean {
  const key = `${group}/${kind}`;
  return (
    Object.hasOwn(SPEC_DEFAULTS, key) || key === '/Secret' || podSpecPath(group, kind) !== undefined
  );
}

const SPEC_DEFAULTS: Readonly<Record<string, (spec: Json) => void>> = {
  'apps/Deployment': (spec) => {
    fill(spec, { replicas: 1, revisionHistoryLimit: 10, progressDeadlineSeconds: 600 });
    const strategy = child(spec, 'strategy');
    if (strategy === undefined) return;
    fill(strategy, { type: 'RollingUpdate' });
    if (strategy.type !== 'RollingUpdate') return;
    const rolling = child(strategy, 'rollingUpdate');
    if (rolling !== undefined) fill(rolling, { maxUnavailable: '25%', maxSurge: '25%' });
  },
  'apps/StatefulSet': (spec) => {
    fill(spec, { replicas: 1, podManagementPolicy: 'OrderedReady', revisionHistoryLimit: 10 });
    const strategy = child(spec, 'updateStrategy');
    if (strategy !== undefined) {
      fill(strategy, { type: 'RollingUpdate' });
      if (strategy.type === 'RollingUpdate') {
        const rolling = child(strategy, 'rollingUpdate');
        if (rolling !== undefined) fill(rolling, { partition: 0 });
      }
    }
    const retention = child(spec, 'persistentVolumeClaimRetentionPolicy');
    if (retention !== undefined) fill(retention, { whenDeleted: 'Retain', whenScaled: 'Retain' });
    for (const claim of objects(spec.volumeClaimTemplates)) {
      const claimSpec = child(claim, 'spec');
      if (claimSpec !== undefined) fill(claimSpec, { volumeMode: 'Filesystem' });
    }
  },
  'apps/DaemonSet': (spec) => {
    fill(spec, { revisionHistoryLimit: 10 });
    const strategy = child(spec, 'updateStrategy');
    if (strategy === undefined) return;
    fill(strategy, { type: 'RollingUpdate' });
    if (strategy.type !== 'RollingUpdate') return;
    const rolling = child(strategy, 'rollingUpdate');
    if (rolling !== undefined) fill(rolling, { maxUnavailable: 1, maxSurge: 0 });
  },
  'apps/ReplicaSet': (spec) => fill(spec, { replicas: 1 }),
  '/ReplicationController': (spec) => fill(spec, { replicas: 1 }),
  'batch/Job': jobDefaults,
  'batch/CronJob': (spec) =>
    fill(spec, {
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    }),
  '/Service': serviceDefaults,
  '/PersistentVolumeClaim': (spec) => fill(spec, { volumeMode: 'Filesystem' }),
  '/PersistentVolume': (spec) =>
    fill(spec, { persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' }),
  'networking.k8s.io/NetworkPolicy': (spec) => {
    // Ingress always; Egress when the policy has egress rules (`SetDefaults_NetworkPolicy`).
    if (Array.isArray(spec.policyTypes) && spec.policyTypes.length > 0) return;
    spec.policyTypes = Array.isArray(spec.egress) ? ['Ingress', 'Egress'] : ['Ingress'];
  },
};

/** `SetDefaults_Job`: one pod at a time, six retries, pods replaced once they stop. */
function jobDefaults(spec: Json): void {
  if (spec.completions == null && spec.parallelism == null) spec.completions = 1;
  fill(spec, {
    parallelism: 1,
    backoffLimit: spec.backoffLimitPerIndex == null ? 6 : 2147483647,
    completionMode: 'NonIndexed',
    suspend: false,
    podReplacementPolicy: spec.podFailurePolicy == null ? 'TerminatingOrFailed' : 'Failed',
  });
}

/** `SetDefaults_Service`. */
function serviceDefaults(spec: Json): void {
  fill(spec, { type: 'ClusterIP', sessionAffinity: 'None' });
  if (spec.type !== 'ExternalName') fill(spec, { internalTrafficPolicy: 'Cluster' });
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') {
    fill(spec, { externalTrafficPolicy: 'Cluster' });
  }
  if (spec.type === 'LoadBalancer') fill(spec, { allocateLoadBalancerNodePorts: true });
  for (const port of objects(spec.ports)) {
    fill(port, { protocol: 'TCP' });
    // A target port of 0 (or none) is the port itself.
    if (port.targetPort === undefined || port.targetPort === 0 || port.targetPort === '') {
      if (port.port !== undefined) port.targetPort = port.port;
    }
  }
}

/** `SetDefaults_PodSpec` and what it holds: containers, probes, volumes. */
function podSpecDefaults(pod: Json): void {
  fill(pod, {
    restartPolicy: 'Always',
    dnsPolicy: 'ClusterFirst',
    terminationGracePeriodSeconds: 30,
    schedulerName: 'default-scheduler',
    enableServiceLinks: true,
  });
  child(pod, 'securityContext');
  for (const list of CONTAINER_LISTS) {
    for (const container of objects(pod[list])) containerDefaults(container);
  }
  for (const volume of objects(pod.volumes)) volumeDefaults(volume);
}

/** `SetDefaults_Container`, its ports', probes' and environment's. */
function containerDefaults(container: Json): void {
  fill(container, {
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
  });
  if (typeof container.image === 'string') {
    fill(container, { imagePullPolicy: pullsAlways(container.image) ? 'Always' : 'IfNotPresent' });
  }
  for (const port of objects(container.ports)) fill(port, { protocol: 'TCP' });
  for (const name of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    const probe = container[name];
    if (!isPlainObject(probe)) continue;
    fill(probe, { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    if (isPlainObject(probe.httpGet)) fill(probe.httpGet, { path: '/', scheme: 'HTTP' });
  }
  for (const variable of objects(container.env)) {
    const from = variable.valueFrom;
    if (isPlainObject(from) && isPlainObject(from.fieldRef))
      fill(from.fieldRef, { apiVersion: 'v1' });
  }
}

/** An image without a tag or digest, or tagged `latest`, is pulled always. */
function pullsAlways(image: string): boolean {
  if (image.includes('@')) return false;
  const name = image.slice(image.lastIndexOf('/') + 1);
  const colon = name.lastIndexOf(':');
  return colon < 0 || name.slice(colon + 1) === 'latest';
}

/** `SetDefaults_Volume` and its sources' file modes (0644). */
function volumeDefaults(volume: Json): void {
  const sources = Object.keys(volume).filter((key) => key !== 'name');
  if (sources.length === 0) volume.emptyDir = {};
  for (const name of ['configMap', 'secret', 'downwardAPI', 'projected']) {
    const source = volume[name];
    if (isPlainObject(source)) fill(source, { defaultMode: 0o644 });
  }
}
