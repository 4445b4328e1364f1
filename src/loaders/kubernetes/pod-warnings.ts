/**
 * What the API server warns of when it takes a pod or a workload's pod template
 * (k8s.io/kubernetes `pkg/api/pod/warnings.go` `GetWarningsForPod`, `GetWarningsForPodTemplate`;
 * kubectl prints each as `Warning: <field>: <message>`): deprecated node labels in selectors,
 * affinity and topology spread constraints, a null label selector that matches no pod, deprecated
 * annotations and volume plugins, an empty image pull secret name, fractional byte quantities,
 * seccomp and AppArmor annotations without their fields, a `hostIP` without a `hostPort`, ports
 * that two containers define alike, paths a volume's items overlap on, and a negative grace
 * period. Each is an `api-warning` at its field, in the API server's words (the field path it
 * prefixes is the finding's location). A repeated variable, port, secret or host alias within a
 * list is the list's `duplicate-list-item` warning already, and is not said twice.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import {
  apiWarning,
  claimSpecWarnings,
  DEPRECATED_NODE_LABELS,
  fractionalByteWarnings,
  nodeSelectorTermWarnings,
  type Path,
  type Warn,
} from './api-warnings.js';
import { goFieldPath } from './go-field-error.js';
import { STRICT_IP_RELEASE, warnOfIp, type Refuse } from './ip-warnings.js';
import { releaseAtLeast, type KubernetesRelease } from './kubernetes-release.js';
import { DNS1123_SUBDOMAIN, dns1123LabelProblems } from './label-syntax.js';
import { CONTAINER_LISTS, podMetadataPath, podSpecPath, valueAtPath } from './pod-spec-paths.js';

/** Annotations that no longer do anything, with what replaces each. */
const DEPRECATED_ANNOTATIONS: Readonly<Record<string, string>> = {
  'scheduler.alpha.kubernetes.io/critical-pod':
    'non-functional in v1.16+; use the "priorityClassName" field instead',
  'security.alpha.kubernetes.io/sysctls':
    'non-functional in v1.11+; use the "sysctls" field instead',
  'security.alpha.kubernetes.io/unsafe-sysctls':
    'non-functional in v1.11+; use the "sysctls" field instead',
};

/** In-tree volume plugins, deprecated or removed, with when (their JSON names). */
const DEPRECATED_VOLUMES: Readonly<Record<string, string>> = {
  photonPersistentDisk: 'deprecated in v1.11, non-functional in v1.16+',
  gitRepo: 'deprecated in v1.11',
  scaleIO: 'deprecated in v1.16, non-functional in v1.22+',
  flocker: 'deprecated in v1.22, non-functional in v1.25+',
  storageos: 'deprecated in v1.22, non-functional in v1.25+',
  quobyte: 'deprecated in v1.22, non-functional in v1.25+',
  glusterfs: 'deprecated in v1.25, non-functional in v1.26+',
  cephfs: 'deprecated in v1.28, non-functional in v1.31+',
  rbd: 'deprecated in v1.28, non-functional in v1.31+',
};

const SECCOMP_POD = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
const APPARMOR_CONTAINER_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const NULL_SELECTOR = 'a null labelSelector results in matching no pod';

/** The pod warnings of a built-in document of `group`/`kind` that holds a pod. */
export function podWarningProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
  release: KubernetesRelease,
): SchemaProblem[] {
  const specAt = podSpecPath(group, kind);
  if (specAt === undefined) return [];
  const spec = valueAtPath(document, specAt);
  if (!isPlainObject(spec)) return [];
  const metadataAt = podMetadataPath(specAt);
  const metadata = valueAtPath(document, metadataAt);
  const annotations =
    isPlainObject(metadata) && isPlainObject(metadata.annotations) ? metadata.annotations : {};
  const problems: SchemaProblem[] = [];
  const warn: Warn = (path, message) => {
    problems.push(apiWarning(path, message));
  };
  const inSpec = (...path: Path): Path => [...specAt, ...path];
  nameWarning(document, kind, warn);
  const inAnnotations = (key: string): Path => [...metadataAt, 'annotations', key];

  nodeLabelWarnings(spec, inSpec, warn);
  for (const [key, message] of Object.entries(DEPRECATED_ANNOTATIONS)) {
    if (Object.hasOwn(annotations, key)) warn(inAnnotations(key), message);
  }
  if (Array.isArray(spec.volumes)) {
    spec.volumes.forEach((volume: unknown, i) => {
      if (!isPlainObject(volume)) return;
      for (const [source, message] of Object.entries(DEPRECATED_VOLUMES)) {
        if (!isSet(volume[source])) continue;
        // The gitRepo driver is off by default from 1.33 (the GitRepoVolumeDriver gate).
        const said =
          source === 'gitRepo' && releaseAtLeast(release, '1.33')
            ? 'deprecated in v1.11, and disabled by default in v1.33+'
            : message;
        warn(inSpec('volumes', i, source), said);
      }
      const claim = isPlainObject(volume.ephemeral)
        ? volume.ephemeral.volumeClaimTemplate
        : undefined;
      if (isPlainObject(claim)) {
        claimSpecWarnings(
          claim.spec,
          inSpec('volumes', i, 'ephemeral', 'volumeClaimTemplate', 'spec'),
          warn,
        );
      }
    });
    overlappingPathWarnings(spec.volumes, (i, message) => warn(inSpec('volumes', i), message));
  }
  if (Array.isArray(spec.imagePullSecrets)) {
    spec.imagePullSecrets.forEach((secret: unknown, i) => {
      const name = isPlainObject(secret) ? secret.name : undefined;
      if (name === undefined || name === null || name === '') {
        warn(inSpec('imagePullSecrets', i, 'name'), 'invalid empty name ""');
      }
    });
  }
  const overhead = spec.overhead;
  if (isPlainObject(overhead)) fractionalByteWarnings(overhead, inSpec('overhead'), warn);
  if (releaseAtLeast(release, '1.33')) {
    // From 1.36 the API server refuses what it warned of (an error, not a warning: `ip-warnings.ts`).
    const refuse: Refuse = (path, message) =>
      problems.push({
        path: jsonPointer([...path]),
        part: 'value',
        keyword: 'ip-address',
        message,
      });
    podIpWarnings(
      spec,
      inSpec,
      warn,
      releaseAtLeast(release, STRICT_IP_RELEASE) ? refuse : undefined,
    );
  }
  const podSecurity = isPlainObject(spec.securityContext) ? spec.securityContext : {};
  if (!isSet(podSecurity.seccompProfile) && Object.hasOwn(annotations, SECCOMP_POD)) {
    warn(
      inAnnotations(SECCOMP_POD),
      'non-functional in v1.27+; use the "seccompProfile" field instead',
    );
  }
  const containers = containersOf(spec, inSpec);
  for (const { container, at } of containers) {
    const security = isPlainObject(container.securityContext) ? container.securityContext : {};
    const name = typeof container.name === 'string' ? container.name : '';
    if (
      !isSet(security.seccompProfile) &&
      Object.hasOwn(annotations, `${SECCOMP_CONTAINER_PREFIX}${name}`)
    ) {
      warn(
        inAnnotations(`${SECCOMP_CONTAINER_PREFIX}${name}`),
        'non-functional in v1.27+; use the "seccompProfile" field instead',
      );
    }
    const appArmorKey = `${APPARMOR_CONTAINER_PREFIX}${name}`;
    const appArmor = annotations[appArmorKey];
    if (
      typeof appArmor === 'string' &&
      appArmorAnnotationWarns(kind, spec, podSecurity, security, appArmor)
    ) {
      warn(
        inAnnotations(appArmorKey),
        'deprecated since v1.30; use the "appArmorProfile" field instead',
      );
    }
    const resources = isPlainObject(container.resources) ? container.resources : {};
    for (const list of ['limits', 'requests']) {
      const quantities = resources[list];
      if (isPlainObject(quantities))
        fractionalByteWarnings(quantities, [...at, 'resources', list], warn);
    }
  }
  portWarnings(containers, warn);
  const grace = spec.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace < 0) {
    warn(
      inSpec('terminationGracePeriodSeconds'),
      'must be >= 0; negative values are invalid and will be treated as 1',
    );
  }
  affinityWarnings(spec.affinity, inSpec, warn);
  return problems;
}

/** Whether the API server generates a Job's selector and labels: no `manualSelector: true`. */
function hasGeneratedSelector(document: Record<string, unknown>): boolean {
  return !(isPlainObject(document.spec) && document.spec.manualSelector === true);
}

/** A pointer Go would not find nil: written and not null. */
function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/**
 * The workload strategies' `WarningsOnCreate`: a Pod's or a workload's name that is no DNS
 * label (its pods' names and hostnames come from it): dots, or more than 63 characters. Go
 * prints the label's problems as a list.
 */
function nameWarning(document: Record<string, unknown>, kind: string, warn: Warn): void {
  if (kind === 'PodTemplate') return;
  const metadata = document.metadata;
  const name = isPlainObject(metadata) ? metadata.name : undefined;
  // A name that is no DNS subdomain is an error already: no warning on top of it.
  if (typeof name !== 'string' || name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) return;
  // Nor on a Job whose name is too long for its generated `job-name` label (`batch-jobs.ts`):
  // the API server gives warnings only of an object it takes.
  if (kind === 'Job' && name.length > 63 && hasGeneratedSelector(document)) return;
  const problems = dns1123LabelProblems(name);
  if (problems.length === 0) return;
  const used = kind === 'Pod' ? "the Pod's hostname" : 'Pod names and hostnames';
  warn(
    ['metadata', 'name'],
    `this is used in ${used}, which can result in surprising behavior; a DNS label is recommended: [${problems.join(' ')}]`,
  );
}

/**
 * Whether a container's AppArmor annotation is warned of. In a pod template, when neither the pod
 * nor the container sets the field. In a Pod (`applyAppArmorVersionSkew`, not on Windows), when
 * the container sets no field and the annotation names no valid profile or another than the
 * pod's, which the API server then copies to the container's field.
 */
function appArmorAnnotationWarns(
  kind: string,
  spec: Record<string, unknown>,
  podSecurity: Record<string, unknown>,
  security: Record<string, unknown>,
  annotation: string,
): boolean {
  if (kind !== 'Pod')
    return !isSet(podSecurity.appArmorProfile) && !isSet(security.appArmorProfile);
  const os = isPlainObject(spec.os) ? spec.os.name : undefined;
  if (os === 'windows' || isSet(security.appArmorProfile)) return false;
  const field = appArmorProfileOf(annotation);
  if (field === undefined) return true;
  const pod = podSecurity.appArmorProfile;
  const podType = isPlainObject(pod) ? pod.type : undefined;
  const podLocal =
    isPlainObject(pod) && typeof pod.localhostProfile === 'string'
      ? pod.localhostProfile
      : undefined;
  return field.type !== podType || field.localhostProfile !== podLocal;
}

/** `ApparmorFieldForAnnotation`, kept only when valid (a Localhost profile names its file). */
function appArmorProfileOf(
  annotation: string,
): { type: string; localhostProfile?: string } | undefined {
  if (annotation === 'runtime/default') return { type: 'RuntimeDefault' };
  if (annotation === 'unconfined') return { type: 'Unconfined' };
  if (annotation.startsWith('localhost/')) {
    const profile = annotation.slice('localhost/'.length);
    const valid =
      profile !== '' && profile.trim() === profile && Buffer.byteLength(profile) <= 4095;
    return valid ? { type: 'Localhost', localhostProfile: profile } : undefined;
  }
  return undefined;
}

/** Deprecated node labels in the node selector, the node affinity terms and spread constraints. */
function nodeLabelWarnings(
  spec: Record<string, unknown>,
  inSpec: (...path: Path) => Path,
  warn: Warn,
): void {
  if (isPlainObject(spec.nodeSelector)) {
    for (const key of Object.keys(spec.nodeSelector)) {
      const message = DEPRECATED_NODE_LABELS[key];
      if (message !== undefined) warn(inSpec('nodeSelector', key), message);
    }
  }
  const affinity = isPlainObject(spec.affinity) ? spec.affinity.nodeAffinity : undefined;
  if (isPlainObject(affinity)) {
    const required = affinity.requiredDuringSchedulingIgnoredDuringExecution;
    const terms = isPlainObject(required) ? required.nodeSelectorTerms : undefined;
    if (Array.isArray(terms)) {
      terms.forEach((term: unknown, i) =>
        nodeSelectorTermWarnings(
          term,
          inSpec(
            'affinity',
            'nodeAffinity',
            'requiredDuringSchedulingIgnoredDuringExecution',
            'nodeSelectorTerms',
            i,
          ),
          warn,
        ),
      );
    }
    const preferred = affinity.preferredDuringSchedulingIgnoredDuringExecution;
    if (Array.isArray(preferred)) {
      preferred.forEach((term: unknown, i) => {
        if (!isPlainObject(term)) return;
        nodeSelectorTermWarnings(
          term.preference,
          inSpec(
            'affinity',
            'nodeAffinity',
            'preferredDuringSchedulingIgnoredDuringExecution',
            i,
            'preference',
          ),
          warn,
        );
      });
    }
  }
  if (Array.isArray(spec.topologySpreadConstraints)) {
    spec.topologySpreadConstraints.forEach((constraint: unknown, i) => {
      if (!isPlainObject(constraint)) return;
      const key = constraint.topologyKey;
      const message = typeof key === 'string' ? DEPRECATED_NODE_LABELS[key] : undefined;
      if (message !== undefined)
        warn(
          inSpec('topologySpreadConstraints', i, 'topologyKey'),
          `${key as string} is ${message}`,
        );
      if (!isSet(constraint.labelSelector))
        warn(inSpec('topologySpreadConstraints', i, 'labelSelector'), NULL_SELECTOR);
    });
  }
}

/** Pod (anti-)affinity terms with no label selector, which match no pod. */
function affinityWarnings(affinity: unknown, inSpec: (...path: Path) => Path, warn: Warn): void {
  if (!isPlainObject(affinity)) return;
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const terms = affinity[kind];
    if (!isPlainObject(terms)) continue;
    const required = terms.requiredDuringSchedulingIgnoredDuringExecution;
    if (Array.isArray(required)) {
      required.forEach((term: unknown, i) => {
        if (isPlainObject(term) && !isSet(term.labelSelector)) {
          warn(
            inSpec(
              'affinity',
              kind,
              'requiredDuringSchedulingIgnoredDuringExecution',
              i,
              'labelSelector',
            ),
            NULL_SELECTOR,
          );
        }
      });
    }
    const preferred = terms.preferredDuringSchedulingIgnoredDuringExecution;
    if (Array.isArray(preferred)) {
      preferred.forEach((term: unknown, i) => {
        const inner = isPlainObject(term) ? term.podAffinityTerm : undefined;
        if (isPlainObject(inner) && !isSet(inner.labelSelector)) {
          warn(
            inSpec(
              'affinity',
              kind,
              'preferredDuringSchedulingIgnoredDuringExecution',
              i,
              'podAffinityTerm',
              'labelSelector',
            ),
            NULL_SELECTOR,
          );
        }
      });
    }
  }
}

/** A container of the pod spec and where it is. */
interface PlacedContainer {
  readonly container: Record<string, unknown>;
  readonly at: Path;
  /** A regular container or a sidecar (an init container that restarts, always). */
  readonly serving: boolean;
}

/** The containers of every list, in the order `VisitContainersWithPath` visits them. */
function containersOf(
  spec: Record<string, unknown>,
  inSpec: (...path: Path) => Path,
): PlacedContainer[] {
  const placed: PlacedContainer[] = [];
  for (const list of CONTAINER_LISTS) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((container: unknown, i) => {
      if (!isPlainObject(container)) return;
      const serving =
        list === 'containers' ||
        (list === 'initContainers' && container.restartPolicy === 'Always');
      placed.push({ container, at: inSpec(list, i), serving });
    });
  }
  return placed;
}

/**
 * Ports across the containers: a `hostIP` without a `hostPort`; a port and protocol two
 * containers define, as a duplicate (same host IP and port), an overlap (a host port of 0 beside
 * another) or a dangerous ambiguity (the same host port, one host IP unset); a port name two
 * containers or sidecars use. The protocol is defaulted to TCP first, as the API server defaults
 * it. Two alike in one container are that list's `duplicate-list-item` (or a repeated name's
 * error) already.
 */
function portWarnings(containers: readonly PlacedContainer[], warn: Warn): void {
  const seen = new Map<
    string,
    { container: number; at: Path; hostIP: string; hostPort: number }[]
  >();
  const named = new Map<string, { container: number; at: Path }>();
  containers.forEach(({ container, at, serving }, c) => {
    if (!Array.isArray(container.ports)) return;
    container.ports.forEach((port: unknown, i) => {
      if (!isPlainObject(port)) return;
      const here = [...at, 'ports', i];
      const hostIP = typeof port.hostIP === 'string' ? port.hostIP : '';
      const hostPort = typeof port.hostPort === 'number' ? port.hostPort : 0;
      const containerPort = typeof port.containerPort === 'number' ? port.containerPort : 0;
      const protocol =
        typeof port.protocol === 'string' && port.protocol !== '' ? port.protocol : 'TCP';
      if (hostIP !== '' && hostPort === 0) {
        const name = typeof port.name === 'string' ? port.name : '';
        warn(
          here,
          `hostIP set without hostPort: {Name:${name} HostPort:${hostPort} ContainerPort:${containerPort} Protocol:${protocol} HostIP:${hostIP}}`,
        );
      }
      const key = `${containerPort}/${protocol}`;
      const others = seen.get(key) ?? [];
      for (const other of others) {
        if (other.container === c) continue;
        const with_ = goFieldPath(other.at);
        if (hostIP === other.hostIP && hostPort === other.hostPort) {
          warn(here, `duplicate port definition with ${with_}`);
        } else if (hostPort === 0 || other.hostPort === 0) {
          warn(here, `overlapping port definition with ${with_}`);
        } else if (hostPort === other.hostPort && (hostIP === '') !== (other.hostIP === '')) {
          warn(here, `dangerously ambiguous port definition with ${with_}`);
        }
      }
      others.push({ container: c, at: here, hostIP, hostPort });
      seen.set(key, others);
      // A name two serving containers give a port: the first is the one services and probes use.
      const name = typeof port.name === 'string' ? port.name : '';
      if (!serving || name === '') return;
      const first = named.get(name);
      if (first === undefined) named.set(name, { container: c, at: here });
      else if (first.container !== c) {
        const used = goFieldPath(first.at);
        warn(
          here,
          `duplicate port name ${JSON.stringify(name)} with ${used}, services and probes that select ports by name will use ${used}`,
        );
      }
    });
  });
}

/** The `path` of each item of a volume source's `items` (a key's file, a downward API file). */
function itemPaths(source: unknown): string[] | undefined {
  const items = isPlainObject(source) ? source.items : undefined;
  if (!Array.isArray(items)) return undefined;
  return items.map((item: unknown) =>
    isPlainObject(item) && typeof item.path === 'string' ? item.path : '',
  );
}

/**
 * `warningsForOverlappingVirtualPaths`: two items of a ConfigMap, Secret or downward API volume
 * written to the same path, or one inside the other's (`a` and `a/b`); in a projected volume,
 * the same across its sources, each path named with its source, and a source with nothing in it.
 */
function overlappingPathWarnings(
  volumes: readonly unknown[],
  warn: (volume: number, message: string) => void,
): void {
  volumes.forEach((volume: unknown, v) => {
    if (!isPlainObject(volume)) return;
    const name = JSON.stringify(typeof volume.name === 'string' ? volume.name : '');
    const single = (paths: string[] | undefined, label: string): void => {
      if (paths === undefined) return;
      const before: string[] = [];
      for (const path of paths) {
        for (const other of overlapping(before, path)) {
          warn(
            v,
            `volume ${name} (${label}): overlapping paths: ${JSON.stringify(trimmed(path))} with ${JSON.stringify(other)}`,
          );
        }
        before.push(path);
      }
    };
    single(
      itemPaths(volume.configMap),
      `ConfigMap ${JSON.stringify(textOf(volume.configMap, 'name'))}`,
    );
    single(
      itemPaths(volume.secret),
      `Secret ${JSON.stringify(textOf(volume.secret, 'secretName'))}`,
    );
    single(itemPaths(volume.downwardAPI), 'DownwardAPI');
    const projected = volume.projected;
    const sources = isPlainObject(projected) ? projected.sources : undefined;
    if (!Array.isArray(sources)) return;
    const before: { path: string; label: string }[] = [];
    for (const source of sources) {
      if (!isPlainObject(source) || Object.values(source).every((value) => !isSet(value))) {
        warn(v, `volume ${name} (Projected) has no sources provided`);
        continue;
      }
      const { paths, label } = projectedPaths(source);
      for (const path of paths) {
        for (const other of before) {
          if (overlapping([other.path], path).length === 0) continue;
          warn(
            v,
            `volume ${name} (Projected): overlapping paths: ${JSON.stringify(trimmed(path))} (${label}) with ${JSON.stringify(other.path)} (${other.label})`,
          );
        }
        before.push({ path, label });
      }
    }
  });
}

/** The paths a projected volume's source writes, and how a warning names the source. */
function projectedPaths(source: Record<string, unknown>): { paths: string[]; label: string } {
  if (isPlainObject(source.configMap)) {
    return {
      paths: itemPaths(source.configMap) ?? [],
      label: `ConfigMap ${JSON.stringify(textOf(source.configMap, 'name'))}`,
    };
  }
  if (isPlainObject(source.secret)) {
    return {
      paths: itemPaths(source.secret) ?? [],
      label: `Secret ${JSON.stringify(textOf(source.secret, 'name'))}`,
    };
  }
  if (isPlainObject(source.downwardAPI)) {
    return { paths: itemPaths(source.downwardAPI) ?? [], label: 'DownwardAPI' };
  }
  if (isPlainObject(source.serviceAccountToken)) {
    return { paths: [textOf(source.serviceAccountToken, 'path')], label: 'ServiceAccountToken' };
  }
  if (isPlainObject(source.clusterTrustBundle)) {
    const bundle = source.clusterTrustBundle;
    const named = isSet(bundle.name) ? textOf(bundle, 'name') : textOf(bundle, 'signerName');
    return {
      paths: [textOf(bundle, 'path')],
      label: `ClusterTrustBundle ${JSON.stringify(named)}`,
    };
  }
  return { paths: [], label: '' };
}

function textOf(source: unknown, field: string): string {
  const value = isPlainObject(source) ? source[field] : undefined;
  return typeof value === 'string' ? value : '';
}

/** A path without its trailing slashes. */
function trimmed(path: string): string {
  // By position: `/\/+$/` reads a long run of slashes again from each slash (quadratic).
  let end = path.length;
  while (end > 0 && path[end - 1] === '/') end--;
  return path.slice(0, end);
}

/**
 * `checkForOverlap`: the earlier paths (as written) that equal `path` or hold it or sit inside
 * it, trailing slashes aside; an empty path overlaps nothing.
 */
function overlapping(earlier: readonly string[], path: string): string[] {
  const mine = trimmed(path);
  if (mine === '') return [];
  return earlier.filter((other) => {
    const theirs = trimmed(other);
    return (
      theirs !== '' &&
      (theirs === mine || theirs.startsWith(`${mine}/`) || mine.startsWith(`${theirs}/`))
    );
  });
}

/**
 * The DNS nameservers' and host aliases' IP addresses in a form to be refused
 * (`ip-warnings.ts`), as `GetWarningsForPodTemplate` gives them from 1.33.
 */
function podIpWarnings(
  spec: Record<string, unknown>,
  inSpec: (...path: Path) => Path,
  warn: Warn,
  refuse?: Refuse,
): void {
  const nameservers = isPlainObject(spec.dnsConfig) ? spec.dnsConfig.nameservers : undefined;
  if (Array.isArray(nameservers)) {
    nameservers.forEach((ip: unknown, i) =>
      warnOfIp(ip, inSpec('dnsConfig', 'nameservers', i), warn, refuse),
    );
  }
  if (Array.isArray(spec.hostAliases)) {
    spec.hostAliases.forEach((alias: unknown, i) => {
      const ip = isPlainObject(alias) ? alias.ip : undefined;
      warnOfIp(ip, inSpec('hostAliases', i, 'ip'), warn, refuse);
    });
  }
}
