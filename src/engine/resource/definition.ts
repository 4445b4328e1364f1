import { nameForms, pluralOf } from './name-forms.js';

/** A column of `cosi get` / `cosi apply` tables: a header and a JSONPath into the spec. */
export interface PrintColumn {
  readonly name: string;
  readonly jsonPath: string;
  /**
   * A CRD printer column's `priority`: above 0, the column is shown only by `-o wide`, as
   * kubectl shows it. Absent (0) for a column every table shows.
   */
  readonly priority?: number;
}

/** `sensitive` types never print their spec. */
export type Sensitivity = '' | 'sensitive';

/** A JSON Schema object for a type's spec (validated by the loaders, not the engine). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/**
 * The Kubernetes identity of a type whose resources are Kubernetes-shaped (defined by a
 * CustomResourceDefinition): manifests of it are `apiVersion` / `kind` / `metadata` documents,
 * and output writes them back in that shape. The resource's spec holds the document's top-level
 * fields other than `apiVersion`, `kind` and `metadata` (`spec`, `status`, `data`, ...).
 */
export interface KubernetesKind {
  /** `group/version`, or the version alone for the core group (`v1`). */
  readonly apiVersion: string;
  /** CamelCase and singular: `Certificate`. */
  readonly kind: string;
  /** `false` for a cluster-scoped type: its resources print no namespace. */
  readonly namespaced: boolean;
  /**
   * Whether the version has the status subresource (a CRD's `subresources.status`): the API
   * server then drops a written `status`, which is neither checked nor kept.
   */
  readonly statusSubresource?: boolean;
  /**
   * Whether the CRD keeps every field its schema does not declare (`spec.preserveUnknownFields:
   * true`, v1beta1's default, which the API server lets a stored CRD keep): nothing is pruned,
   * so no field is unknown.
   */
  readonly keepsUnknownFields?: boolean;
  /**
   * `false` for a built-in kind the API server keeps no `metadata.generation` for (ConfigMap,
   * Service, Role, ...): its objects print none. Custom resources and the built-in kinds with a
   * spec a controller acts on (Deployment, Job, Ingress, ...) have one.
   */
  readonly generation?: boolean;
  /**
   * The version's scale subresource (a CRD's `subresources.scale`): where its resources hold
   * their replica counts, which the API server checks are integers from 0 to 2^31-1.
   */
  readonly scale?: { readonly specReplicasPath: string; readonly statusReplicasPath: string };
  /**
   * The warning the API server returns for every request at this version when the CRD marks it
   * `deprecated` (its `deprecationWarning`, or one it words itself).
   */
  readonly deprecationWarning?: string;
}

/** What a user writes to declare a type. Everything but `type` is optional. */
export interface ResourceDefinitionInput {
  /** Plural CamelCase name and a dotted lower-case suffix: `VMs.example.org`. */
  readonly type: string;
  /** Singular display name; derived from the type when omitted. */
  readonly displayType?: string;
  /** Namespace of resources that do not name one; `default` when omitted. */
  readonly defaultNamespace?: string;
  /** Extra aliases on top of the derived ones. */
  readonly aliases?: readonly string[];
  /** Do not derive aliases from the name. */
  readonly skipAutomaticAliases?: boolean;
  readonly printColumns?: readonly PrintColumn[];
  readonly sensitivity?: Sensitivity;
  /** JSON Schema for the spec. */
  readonly schema?: JsonSchema;
  /** Resources of the type are Kubernetes-shaped (see {@link KubernetesKind}). */
  readonly kubernetes?: KubernetesKind;
}

/** A validated definition with its aliases filled in. */
export interface ResourceDefinition {
  /** Lower-cased type, COSI's definition id. */
  readonly id: string;
  readonly type: string;
  readonly displayType: string;
  readonly defaultNamespace: string;
  /** The explicit aliases, then the derived short names (singular, acronyms), as COSI orders them. */
  readonly aliases: readonly string[];
  /** Every name the type resolves from (lower-case): plural, plural with suffix prefixes, then `aliases`. */
  readonly allAliases: readonly string[];
  readonly printColumns: readonly PrintColumn[];
  readonly sensitivity: Sensitivity;
  /**
   * JSON Schema for the spec; for a Kubernetes-shaped type, for the whole document (as a CRD's
   * `openAPIV3Schema` is).
   */
  readonly schema?: JsonSchema;
  readonly kubernetes?: KubernetesKind;
}

/** Which naming rule a definition broke. */
export type DefinitionRule =
  | 'missing-suffix'
  | 'empty-name'
  | 'empty-suffix'
  | 'name-not-camel-case'
  | 'invalid-name'
  | 'invalid-suffix'
  | 'name-not-plural'
  | 'unknown-sensitivity'
  | 'invalid-namespace'
  | 'invalid-print-column';

/** Thrown for an invalid definition; `rule` says which rule failed. */
export class DefinitionError extends Error {
  readonly code = 'invalid-definition';
  constructor(
    readonly type: string,
    readonly rule: DefinitionRule,
    message: string,
  ) {
    super(`invalid resource definition ${JSON.stringify(type)}: ${message}`);
    this.name = 'DefinitionError';
  }
}

const NAME_PATTERN = /^[A-Z][A-Za-z0-9-]+$/;
const SUFFIX_PATTERN = /^[a-z][a-z0-9-]+(\.[a-z][a-z0-9-]+)*$/;
/**
 * The suffix of a Kubernetes kind's type: its group (or `core`), a DNS-1123 subdomain as the API
 * server takes it, whose labels may be one character or start with a digit
 * (`ec2.aws.m.upbound.io`, Crossplane's namespaced managed resources), which COSI's rule refuses.
 */
const KUBERNETES_SUFFIX_PATTERN =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** COSI's namespace rule: a resource's namespace and a definition's default namespace. */
export const NAMESPACE_PATTERN = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/;

/** The default namespace of a type that does not name one. */
export const DEFAULT_NAMESPACE = 'default';

/**
 * Validates a definition by COSI's rules and derives its display type and aliases.
 *
 * @example
 * createDefinition({ type: 'NetworkConfigs.example.org' }).aliases
 * // ['networkconfig', 'nc', 'ncs']
 * @throws DefinitionError naming the rule that failed.
 */
export function createDefinition(input: ResourceDefinitionInput): ResourceDefinition {
  const fail = (rule: DefinitionRule, message: string): never => {
    throw new DefinitionError(input.type, rule, message);
  };
  const type = input.type;
  const dot = type.indexOf('.');
  if (dot < 0) fail('missing-suffix', 'the type needs a dotted suffix, as in "Things.example.org"');
  const name = type.slice(0, dot);
  const suffix = type.slice(dot + 1);
  if (name.length === 0) fail('empty-name', 'the name before the first dot is empty');
  if (suffix.length === 0) fail('empty-suffix', 'the suffix after the first dot is empty');
  if (name.toLowerCase() === name) {
    fail('name-not-camel-case', `the name ${JSON.stringify(name)} should be in CamelCase`);
  }
  if (!NAME_PATTERN.test(name)) {
    fail('invalid-name', `the name ${JSON.stringify(name)} does not match ${String(NAME_PATTERN)}`);
  }
  const suffixPattern = input.kubernetes ? KUBERNETES_SUFFIX_PATTERN : SUFFIX_PATTERN;
  if (!suffixPattern.test(suffix)) {
    fail(
      'invalid-suffix',
      `the suffix ${JSON.stringify(suffix)} does not match ${String(suffixPattern)}`,
    );
  }
  const forms = nameForms(name);
  // A CRD's names.plural is whatever its author chose (`podinfo`, `kubevirt`): the API server
  // asks only for a lower-case DNS label, so only cosi's own types are held to English plurals.
  if (!forms.plural && input.kubernetes === undefined) {
    fail(
      'name-not-plural',
      `the name ${JSON.stringify(name)} should be plural (${JSON.stringify(pluralOf(name))})`,
    );
  }
  // Definitions also come from YAML, so the union type is not a guarantee here.
  const sensitivity = (input.sensitivity ?? '') as string;
  if (sensitivity !== '' && sensitivity !== 'sensitive') {
    fail('unknown-sensitivity', `unknown sensitivity ${JSON.stringify(sensitivity)}`);
  }
  const defaultNamespace = input.defaultNamespace ?? DEFAULT_NAMESPACE;
  if (!NAMESPACE_PATTERN.test(defaultNamespace)) {
    fail(
      'invalid-namespace',
      `the default namespace ${JSON.stringify(defaultNamespace)} does not match ${String(NAMESPACE_PATTERN)}`,
    );
  }
  const printColumns = input.printColumns ?? [];
  for (const column of printColumns) {
    if (!column.name || !column.jsonPath) {
      fail('invalid-print-column', 'a print column needs a name and a jsonPath');
    }
  }

  const displayType = input.displayType ?? forms.singular;
  // Explicit aliases come first and the derived ones after them, as COSI's Fill appends to them:
  // so `cosi get rd` lists `api-resources, resourcedefinition, rd, rds` as talosctl does.
  const aliases: string[] = (input.aliases ?? []).map((alias) => alias.toLowerCase());
  const allAliases: string[] = [];
  if (!input.skipAutomaticAliases) {
    aliases.push(forms.singular.toLowerCase());
    allAliases.push(name.toLowerCase());
    const parts = suffix.split('.');
    for (let i = 1; i < parts.length; i++) {
      allAliases.push([name.toLowerCase(), ...parts.slice(0, i)].join('.'));
    }
    const capitals = name.replace(/[^A-Z]/g, '');
    if (capitals.length > 1) {
      aliases.push(capitals.toLowerCase());
      if (!capitals.endsWith('S')) aliases.push(`${capitals}s`.toLowerCase());
    }
  }
  if (input.kubernetes !== undefined) {
    // kubectl's `KIND.GROUP` form, which its `-o name` prints: `deployment.apps/web`; the
    // type of the group's preferred version has it (`Certificates.v1alpha2.cert-manager.io`,
    // an older version's, does not).
    const { apiVersion, kind } = input.kubernetes;
    const slash = apiVersion.lastIndexOf('/');
    const group = apiVersion.slice(0, Math.max(0, slash));
    if (group !== '' && suffix === group) {
      // And its `RESOURCE.VERSION.GROUP` / `KIND.VERSION.GROUP` forms, which name the version:
      // `gateways.v1.gateway.networking.k8s.io/main`.
      const version = apiVersion.slice(slash + 1);
      allAliases.push(
        `${kind.toLowerCase()}.${group}`,
        `${name.toLowerCase()}.${version}.${group}`,
        `${kind.toLowerCase()}.${version}.${group}`,
      );
    }
  }
  const uniqueAliases = [...new Set(aliases)];
  return {
    id: type.toLowerCase(),
    type,
    displayType,
    defaultNamespace,
    aliases: uniqueAliases,
    allAliases: [...new Set([...allAliases, ...uniqueAliases])],
    printColumns: printColumns.map((c) => ({
      name: c.name,
      jsonPath: c.jsonPath,
      ...(c.priority !== undefined && c.priority > 0 ? { priority: c.priority } : {}),
    })),
    sensitivity: sensitivity as Sensitivity,
    ...(input.schema ? { schema: input.schema } : {}),
    ...(input.kubernetes ? { kubernetes: { ...input.kubernetes } } : {}),
  };
}

/** The type of the documents that define types. */
export const RESOURCE_DEFINITION_TYPE = 'ResourceDefinitions.meta.cosi.dev';

/** The definition of definitions themselves, with COSI's aliases. */
export const resourceDefinitionDefinition: ResourceDefinition = createDefinition({
  type: RESOURCE_DEFINITION_TYPE,
  defaultNamespace: 'meta',
  aliases: ['api-resources'],
  printColumns: [{ name: 'Aliases', jsonPath: '{.aliases[:]}' }],
});
