/**
 * The built-in kinds of a Kubernetes release (ConfigMap, Deployment, Service, ...) as cosi
 * definitions, made the first time a document or a controller needs one:
 *
 * - **Type:** `<Plural>.<group>` (`Deployments.apps`, `Roles.rbac.authorization.k8s.io`), the core
 *   group as `core` (`ConfigMaps.core`), for the group's preferred version (the most stable, then
 *   the newest: `autoscaling/v2`); another served version is `<Plural>.<version>.<group>`, without
 *   aliases, as for a CRD.
 * - **Aliases:** kubectl's short names (`deploy`, `svc`, `cm`), the singular and the kind.
 * - **Schema:** the release's OpenAPI definition as a structural schema (`builtin-schema.ts`),
 *   checked by walking it (`structural-validator.ts`).
 */

import pluralize from 'pluralize';
import {
  createDefinition,
  type JsonSchema,
  type PrintColumn,
  type ResourceDefinition,
} from '../../engine/resource/definition.js';
import { precompileSchema } from '../schema-compiler.js';
import { builtinOpenApi, type BuiltinKindEntry } from './builtin-openapi.js';
import { BuiltinSchemas } from './builtin-schema.js';
import { closedSetsFor } from './builtin-closed-sets.js';
import { requiredFieldsFor } from './builtin-required-fields.js';
import { camelPlural } from './crd-definitions.js';
import { DEFAULT_KUBERNETES_RELEASE, type KubernetesRelease } from './kubernetes-release.js';
import { validateStructural } from './structural-validator.js';

/** kubectl's short names of the built-in resources (their REST storage's `ShortNames()`). */
const SHORT_NAMES: Readonly<Record<string, readonly string[]>> = {
  '/configmaps': ['cm'],
  '/endpoints': ['ep'],
  '/events': ['ev'],
  '/limitranges': ['limits'],
  '/namespaces': ['ns'],
  '/nodes': ['no'],
  '/persistentvolumeclaims': ['pvc'],
  '/persistentvolumes': ['pv'],
  '/pods': ['po'],
  '/replicationcontrollers': ['rc'],
  '/resourcequotas': ['quota'],
  '/serviceaccounts': ['sa'],
  '/services': ['svc'],
  'apps/daemonsets': ['ds'],
  'apps/deployments': ['deploy'],
  'apps/replicasets': ['rs'],
  'apps/statefulsets': ['sts'],
  'autoscaling/horizontalpodautoscalers': ['hpa'],
  'batch/cronjobs': ['cj'],
  'certificates.k8s.io/certificatesigningrequests': ['csr'],
  'networking.k8s.io/ingresses': ['ing'],
  'networking.k8s.io/networkpolicies': ['netpol'],
  'policy/poddisruptionbudgets': ['pdb'],
  'scheduling.k8s.io/priorityclasses': ['pc'],
  'storage.k8s.io/storageclasses': ['sc'],
  'storage.k8s.io/volumeattributesclasses': ['vac'],
  'apiextensions.k8s.io/customresourcedefinitions': ['crd', 'crds'],
};

/**
 * A few columns of kubectl's tables, read from the object as the API server stores it (with its
 * defaults: a Deployment without `replicas` has 1); those kubectl writes its own way (a
 * Service's `80/TCP`) are made by `builtin-print-cells.ts`.
 */
const WORKLOAD_COLUMNS: readonly PrintColumn[] = [
  { name: 'Replicas', jsonPath: '{.spec.replicas}' },
  { name: 'Images', jsonPath: '{.spec.template.spec.containers[*].image}' },
];
const PRINT_COLUMNS: Readonly<Record<string, readonly PrintColumn[]>> = {
  'apps/Deployment': WORKLOAD_COLUMNS,
  'apps/StatefulSet': WORKLOAD_COLUMNS,
  'apps/ReplicaSet': WORKLOAD_COLUMNS,
  'apps/DaemonSet': [{ name: 'Images', jsonPath: '{.spec.template.spec.containers[*].image}' }],
  // Not `Type`: the table's own TYPE column is the resource's type.
  '/Service': [
    { name: 'Service-Type', jsonPath: '{.spec.type}' },
    { name: 'Ports', jsonPath: '{.spec.ports[*].port}' },
  ],
  '/Secret': [{ name: 'Secret-Type', jsonPath: '{.type}' }],
  // The count of its keys (builtin-print-cells.ts), as kubectl's DATA.
  '/ConfigMap': [{ name: 'Data', jsonPath: '{.data}' }],
  'batch/CronJob': [
    { name: 'Schedule', jsonPath: '{.spec.schedule}' },
    { name: 'Timezone', jsonPath: '{.spec.timeZone}' },
    { name: 'Suspend', jsonPath: '{.spec.suspend}' },
  ],
  'policy/PodDisruptionBudget': [
    { name: 'Min Available', jsonPath: '{.spec.minAvailable}' },
    { name: 'Max Unavailable', jsonPath: '{.spec.maxUnavailable}' },
  ],
  'networking.k8s.io/NetworkPolicy': [{ name: 'Pod-Selector', jsonPath: '{.spec.podSelector}' }],
  'rbac.authorization.k8s.io/RoleBinding': [{ name: 'Role', jsonPath: '{.roleRef.name}' }],
  'rbac.authorization.k8s.io/ClusterRoleBinding': [{ name: 'Role', jsonPath: '{.roleRef.name}' }],
  'networking.k8s.io/Ingress': [{ name: 'Class', jsonPath: '{.spec.ingressClassName}' }],
};

/**
 * The built-in kinds whose objects have a `metadata.generation`: those whose REST strategy sets
 * it to 1 on create and counts their spec's changes (`pkg/registry/<group>/<kind>/strategy.go` in
 * Kubernetes). Every other built-in object has none.
 */
const GENERATION_KINDS: ReadonlySet<string> = new Set([
  '/ReplicationController',
  'apps/DaemonSet',
  'apps/Deployment',
  'apps/ReplicaSet',
  'apps/StatefulSet',
  'batch/CronJob',
  'batch/Job',
  'networking.k8s.io/Ingress',
  'networking.k8s.io/IngressClass',
  'networking.k8s.io/NetworkPolicy',
  'policy/PodDisruptionBudget',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/MutatingAdmissionPolicy',
  'admissionregistration.k8s.io/MutatingAdmissionPolicyBinding',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'apiextensions.k8s.io/CustomResourceDefinition',
  'flowcontrol.apiserver.k8s.io/FlowSchema',
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration',
]);

const catalogs = new Map<KubernetesRelease, BuiltinKinds>();
/** The built-in definitions made, with the release each is of. */
const builtins = new WeakMap<ResourceDefinition, KubernetesRelease>();

/** Whether a definition is one of Kubernetes' own kinds (made by a {@link BuiltinKinds}). */
export function isBuiltinDefinition(definition: ResourceDefinition): boolean {
  return builtins.has(definition);
}

/** The release a built-in definition is of; undefined for any other definition. */
export function builtinReleaseOf(definition: ResourceDefinition): KubernetesRelease | undefined {
  return builtins.get(definition);
}

/** The built-in kinds of a release, read from the vendored document the first time one is asked. */
export class BuiltinKinds {
  #entries: Map<string, BuiltinKindEntry> | undefined;
  /** `group/kind` -> versions served, the preferred first. */
  #versions: Map<string, string[]> | undefined;
  /** kind -> every `apiVersion` serving it, to say where a kind is when its group is wrong. */
  #apiVersions: Map<string, string[]> | undefined;
  #schemas: BuiltinSchemas | undefined;
  readonly #definitions = new Map<string, ResourceDefinition>();

  private constructor(readonly release: KubernetesRelease) {}

  /** The catalog of a release (one per process). */
  static of(release: KubernetesRelease = DEFAULT_KUBERNETES_RELEASE): BuiltinKinds {
    let catalog = catalogs.get(release);
    if (catalog === undefined) catalogs.set(release, (catalog = new BuiltinKinds(release)));
    return catalog;
  }

  /** The definition of a built-in group, version and kind, or `undefined`. */
  find(group: string, version: string, kind: string): ResourceDefinition | undefined {
    const key = `${group}/${version}/${kind}`;
    const made = this.#definitions.get(key);
    if (made !== undefined) return made;
    const entry = this.#index().entries.get(key);
    if (entry === undefined) return undefined;
    const definition = this.#define(entry);
    builtins.set(definition, this.release);
    this.#definitions.set(key, definition);
    return definition;
  }

  /**
   * The definition a type name stands for (`Deployments.apps`, `HorizontalPodAutoscalers.v1.autoscaling`),
   * for types controllers write without defining them.
   */
  findByType(type: string): ResourceDefinition | undefined {
    const dot = type.indexOf('.');
    if (dot < 0) return undefined;
    const rest = type.slice(dot + 1);
    const plural = type.slice(0, dot).toLowerCase();
    for (const entry of this.#index().entries.values()) {
      if (entry.plural !== plural) continue;
      const group = entry.group === '' ? 'core' : entry.group;
      const preferred = this.versionsOf(entry.group, entry.kind)[0] === entry.version;
      if (rest === (preferred ? group : `${entry.version}.${group}`)) {
        return this.find(entry.group, entry.version, entry.kind);
      }
    }
    return undefined;
  }

  /**
   * The definition a user's name for a kind stands for, as kubectl resolves it: the kind, its
   * plural or singular, a short name (`hpa`, `deploy`) or `plural.group`, any case, in the
   * preferred version; the core group first when several groups serve a name (`event`).
   */
  findByName(name: string): ResourceDefinition | undefined {
    const lower = name.toLowerCase();
    for (const entry of this.#index().entries.values()) {
      if (this.versionsOf(entry.group, entry.kind)[0] !== entry.version) continue;
      const names = [
        entry.kind.toLowerCase(),
        entry.plural,
        pluralize.singular(entry.plural),
        `${entry.plural}.${entry.group === '' ? 'core' : entry.group}`,
        ...(SHORT_NAMES[`${entry.group}/${entry.plural}`] ?? []),
      ];
      if (names.includes(lower)) return this.find(entry.group, entry.version, entry.kind);
    }
    return undefined;
  }

  /**
   * `apiVersion`, `kind` and `metadata` as every kind's schema has them: what the API server
   * publishes for a CRD in place of its own (TypeMeta's fields, and ObjectMeta).
   */
  objectFields(): { apiVersion: JsonSchema; kind: JsonSchema; metadata: JsonSchema } {
    const properties = this.find('', 'v1', 'ConfigMap')?.schema?.properties as
      Readonly<Record<string, JsonSchema>> | undefined;
    const { apiVersion, kind, metadata } = properties ?? {};
    if (apiVersion === undefined || kind === undefined || metadata === undefined) {
      throw new Error(
        `Kubernetes ${this.release} has no ConfigMap with apiVersion, kind, metadata`,
      );
    }
    return { apiVersion, kind, metadata };
  }

  /** The versions a group serves a kind in, the preferred first (empty: none). */
  versionsOf(group: string, kind: string): readonly string[] {
    return this.#index().versions.get(`${group}/${kind}`) ?? [];
  }

  /**
   * Whether a built-in group, version and kind is namespaced, read from the catalog without
   * making its definition; `undefined`: the release has no such kind.
   */
  isNamespaced(group: string, version: string, kind: string): boolean | undefined {
    return this.#index().entries.get(`${group}/${version}/${kind}`)?.namespaced;
  }

  /** Every `apiVersion` that serves a kind in this release (empty: none). */
  apiVersionsOf(kind: string): readonly string[] {
    return this.#index().apiVersions.get(kind) ?? [];
  }

  /** Whether this release serves any kind in `group` (`''`: the core group). */
  hasGroup(group: string): boolean {
    for (const entry of this.#index().entries.values()) if (entry.group === group) return true;
    return false;
  }

  /** Every kind of this release, for the nearest to a misspelled one. */
  kinds(): string[] {
    return [...this.#index().apiVersions.keys()];
  }

  #index(): {
    entries: Map<string, BuiltinKindEntry>;
    versions: Map<string, string[]>;
    apiVersions: Map<string, string[]>;
  } {
    if (
      this.#entries === undefined ||
      this.#versions === undefined ||
      this.#apiVersions === undefined
    ) {
      const document = builtinOpenApi(this.release);
      this.#entries = new Map();
      this.#versions = new Map();
      this.#apiVersions = new Map();
      for (const entry of document.kinds) {
        this.#entries.set(`${entry.group}/${entry.version}/${entry.kind}`, entry);
        const groupKind = `${entry.group}/${entry.kind}`;
        this.#versions.set(groupKind, [...(this.#versions.get(groupKind) ?? []), entry.version]);
        const apiVersion = entry.group === '' ? entry.version : `${entry.group}/${entry.version}`;
        this.#apiVersions.set(entry.kind, [
          ...(this.#apiVersions.get(entry.kind) ?? []),
          apiVersion,
        ]);
      }
      for (const versions of this.#versions.values()) versions.sort(compareKubeVersions);
      this.#schemas = new BuiltinSchemas(
        document.definitions,
        closedSetsFor(this.release),
        requiredFieldsFor(this.release),
      );
    }
    return { entries: this.#entries, versions: this.#versions, apiVersions: this.#apiVersions };
  }

  #define(entry: BuiltinKindEntry): ResourceDefinition {
    const schemas = this.#schemas as BuiltinSchemas;
    const schema = schemas.schemaOf(entry.definition);
    precompileSchema(schema, () => ({
      problems: [],
      validate: (value) => validateStructural(value, schema),
    }));
    const preferred = this.versionsOf(entry.group, entry.kind)[0] === entry.version;
    const group = entry.group === '' ? 'core' : entry.group;
    const plural = camelPlural(entry.plural, entry.kind);
    return createDefinition({
      type: preferred ? `${plural}.${group}` : `${plural}.${entry.version}.${group}`,
      displayType: entry.kind,
      ...(preferred
        ? {
            aliases: [
              ...(SHORT_NAMES[`${entry.group}/${entry.plural}`] ?? []),
              pluralize.singular(entry.plural),
              entry.kind,
            ],
          }
        : { skipAutomaticAliases: true }),
      printColumns: PRINT_COLUMNS[`${entry.group}/${entry.kind}`] ?? [],
      schema,
      kubernetes: {
        apiVersion: entry.group === '' ? entry.version : `${entry.group}/${entry.version}`,
        kind: entry.kind,
        namespaced: entry.namespaced,
        ...(GENERATION_KINDS.has(`${entry.group}/${entry.kind}`) ? {} : { generation: false }),
      },
    });
  }
}

/**
 * Kubernetes' version priority, highest first: GA before beta before alpha, then the higher
 * number (`v2`, `v1`, `v1beta2`, `v1beta1`, `v1alpha1`).
 */
export function compareKubeVersions(a: string, b: string): number {
  const rank = (v: string): [number, number, number] => {
    const match = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (match === null) return [-1, 0, 0];
    const stability = match[2] === undefined ? 2 : match[2] === 'beta' ? 1 : 0;
    return [stability, Number(match[1]), Number(match[3] ?? 0)];
  };
  const [sa, ma, na] = rank(a);
  const [sb, mb, nb] = rank(b);
  return sb - sa || mb - ma || nb - na || a.localeCompare(b);
}
