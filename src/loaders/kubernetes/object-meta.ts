/**
 * What the API server checks of an object's metadata in Go, beyond its OpenAPI schema: the name's
 * syntax for the kind (apimachinery's `ValidateObjectMeta` with the kind's name rule), and the
 * syntax of label keys and values and annotation keys (`ValidateLabels`,
 * `ValidateAnnotations`). The groups whose Go validation calls the core group's `ValidateObjectMeta`
 * also need a finalizer without a `domain/` prefix to be a standard one (`validateKubeFinalizerName`).
 * Each problem is a finding at its node.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-compiler.js';
import { invalidStructValue, invalidValue } from './go-field-error.js';
import {
  dns1035LabelProblems,
  dns1123LabelProblems,
  dns1123SubdomainProblems,
  labelValueProblems,
  pathSegmentProblems,
  qualifiedNameProblems,
} from './label-syntax.js';
import { splitApiVersion } from './kubernetes-shape.js';

const TOTAL_ANNOTATION_BYTES = 256 * 1024;

/** How a built-in kind's names are checked; every other kind takes path-segment names. */
const NAME_RULES: Readonly<Record<string, NameRule>> = {
  '/Namespace': 'dns-1123-label',
  '/Service': 'dns-1035-label',
  // RBAC names only need to be a path segment (`system:controller:...`).
  'rbac.authorization.k8s.io/Role': 'path-segment',
  'rbac.authorization.k8s.io/ClusterRole': 'path-segment',
  'rbac.authorization.k8s.io/RoleBinding': 'path-segment',
  'rbac.authorization.k8s.io/ClusterRoleBinding': 'path-segment',
  // And `<version>.<group>` (`api-services.ts`): `v1.` is the legacy group's.
  'apiregistration.k8s.io/APIService': 'path-segment',
};

type NameRule = 'dns-1123-label' | 'dns-1035-label' | 'dns-1123-subdomain' | 'path-segment';

/**
 * The groups whose kinds' metadata Go checks with `pkg/apis/core/validation`'s `ValidateObjectMeta`
 * (the core group, `apps`, `batch`), which adds `validateKubeFinalizerName`.
 */
const KUBE_FINALIZER_GROUPS = new Set(['', 'apps', 'batch']);
/** The finalizers that need no domain (`IsStandardFinalizerName`). */
export const STANDARD_FINALIZERS: ReadonlySet<string> = new Set([
  'kubernetes',
  'orphan',
  'foregroundDeletion',
]);
export const NOT_QUALIFIED_FINALIZER =
  'name is neither a standard finalizer name nor is it fully qualified';

/**
 * The metadata problems of a document of `group`/`kind`; `builtin`: a kind of Kubernetes itself
 * (its name rule is the kind's, a DNS subdomain unless listed), else a custom resource (a DNS
 * subdomain: the API server's `customResourceValidator` checks its name with
 * `NameIsDNSSubdomain`).
 */
export function objectMetaProblems(
  metadata: unknown,
  group: string,
  kind: string,
  builtin: boolean,
  document?: Record<string, unknown>,
): SchemaProblem[] {
  const rule = builtin
    ? (NAME_RULES[`${group}/${kind}`] ?? 'dns-1123-subdomain')
    : 'dns-1123-subdomain';
  if (builtin && group === 'certificates.k8s.io' && kind === 'ClusterTrustBundle') {
    return trustBundleMetaProblems(metadata, document?.spec);
  }
  const problems = metadataProblems(metadata, ['metadata'], rule, true);
  if (builtin && KUBE_FINALIZER_GROUPS.has(group) && isPlainObject(metadata)) {
    const finalizers = Array.isArray(metadata.finalizers) ? metadata.finalizers : [];
    finalizers.forEach((finalizer: unknown, i) => {
      if (typeof finalizer !== 'string' || finalizer.includes('/')) return;
      if (STANDARD_FINALIZERS.has(finalizer)) return;
      problems.push({
        path: jsonPointer(['metadata', 'finalizers', i]),
        part: 'value',
        keyword: 'finalizer',
        message: invalidValue(finalizer, NOT_QUALIFIED_FINALIZER),
      });
    });
  }
  return problems;
}

/**
 * A ClusterTrustBundle's metadata (`ValidateClusterTrustBundleName`): with a `signerName`, its
 * name is the signer's with `:` for `/`, a `:` and a DNS-1123 subdomain
 * (`example.com:signer:bundle`); without, a DNS-1123 subdomain, which has no `:`.
 */
function trustBundleMetaProblems(metadata: unknown, spec: unknown): SchemaProblem[] {
  if (!isPlainObject(metadata) || typeof metadata.name !== 'string') {
    return metadataProblems(metadata, ['metadata'], 'dns-1123-subdomain', true);
  }
  const name = metadata.name;
  const signer = isPlainObject(spec) && typeof spec.signerName === 'string' ? spec.signerName : '';
  const refuse = (message: string): SchemaProblem[] => [
    ...metadataProblems({ ...metadata, name: 'a' }, ['metadata'], 'dns-1123-subdomain', true),
    {
      path: '/metadata/name',
      part: 'value',
      keyword: 'trust-bundle-name',
      message: invalidValue(name, message),
    },
  ];
  if (signer === '') {
    return name.includes(':')
      ? refuse('ClusterTrustBundle without signer name must not have ":" in its name')
      : metadataProblems(metadata, ['metadata'], 'dns-1123-subdomain', true);
  }
  const prefix = `${signer.replaceAll('/', ':')}:`;
  if (!name.startsWith(prefix)) {
    return refuse(
      `ClusterTrustBundle for signerName ${signer} must be named with prefix ${prefix}`,
    );
  }
  // The name is checked without the signer's prefix, and named whole, as Go names it.
  return metadataProblems(metadata, ['metadata'], 'dns-1123-subdomain', true, prefix.length);
}

/**
 * The metadata problems of a resource embedded in a custom resource
 * (`x-kubernetes-embedded-resource`), at `at`: its name need only be a path segment, and a
 * namespace, when it has one, is a DNS-1123 label (`ValidateObjectMeta` with
 * `ValidatePathSegmentName`, as `objectmeta.Validate` calls it).
 */
export function embeddedObjectMetaProblems(
  metadata: unknown,
  at: readonly (string | number)[],
): SchemaProblem[] {
  const problems = metadataProblems(metadata, at, 'path-segment', false);
  if (isPlainObject(metadata) && typeof metadata.namespace === 'string') {
    for (const message of dns1123LabelProblems(metadata.namespace)) {
      problems.push({
        path: jsonPointer([...at, 'namespace']),
        part: 'value',
        keyword: 'invalid-namespace',
        message: invalidValue(metadata.namespace, message),
      });
    }
  }
  return problems;
}

/**
 * `ValidateObjectMeta`'s checks of name, labels, finalizers, owners and annotations; `root`: the
 * document's own metadata, whose label keys with blanks the manifest's header reports.
 */
function metadataProblems(
  metadata: unknown,
  at: readonly (string | number)[],
  rule: NameRule,
  root: boolean,
  /** How much of the name's start its kind takes off before the rule's check (a signer's). */
  nameStart = 0,
): SchemaProblem[] {
  if (!isPlainObject(metadata)) return [];
  const problems: SchemaProblem[] = [];
  const problem = (
    path: (string | number)[],
    keyword: string,
    message: string,
    part: 'key' | 'value' = 'value',
  ) => problems.push({ path: jsonPointer([...at, ...path]), part, keyword, message });
  const { name, generateName } = metadata;
  if (typeof name === 'string' && (name !== '' || rule !== 'path-segment')) {
    for (const why of nameProblems(name.slice(nameStart), rule)) {
      problem(['name'], rule, invalidValue(name, why));
    }
  }
  if (typeof generateName === 'string' && generateName !== '') {
    // `nameFn(generateName, true)`: the prefix is a name but for a trailing dash; a path
    // segment's prefix may be `.` or `..`, only / and % are refused.
    const prefix =
      rule === 'path-segment'
        ? generateName === '.' || generateName === '..'
          ? 'a'
          : generateName
        : generateName.replace(/-$/, 'a');
    for (const why of nameProblems(prefix, rule)) {
      problem(['generateName'], rule, invalidValue(generateName, why));
    }
  }
  labelProblems(metadata.labels, root, problem);
  finalizerProblems(metadata.finalizers, problem);
  ownerReferenceProblems(metadata.ownerReferences, problem);
  annotationProblems(metadata.annotations, problem);
  return problems;
}

type Problem = (
  path: (string | number)[],
  keyword: string,
  message: string,
  part?: 'key' | 'value',
) => void;

/** `ValidateLabels`: qualified-name keys, label values; `root` as for {@link metadataProblems}. */
function labelProblems(labels: unknown, root: boolean, problem: Problem): void {
  if (!isPlainObject(labels)) return;
  for (const [key, value] of Object.entries(labels)) {
    // A key with blanks or control characters is reported by the header's own check.
    // A key with blanks or control characters is reported by the header's own check.
    if (!(root && /[\s\p{Cc}]/u.test(key))) {
      for (const why of qualifiedNameProblems(key)) {
        problem(['labels', key], 'label-key', invalidValue(key, why), 'key');
      }
    }
    if (typeof value === 'string') {
      for (const why of labelValueProblems(value)) {
        problem(['labels', key], 'label-value', invalidValue(value, why));
      }
    }
  }
}

/** `ValidateAnnotations`: qualified-name keys (lower-cased), 256 KiB in all. */
function annotationProblems(annotations: unknown, problem: Problem): void {
  if (!isPlainObject(annotations)) return;
  let bytes = 0;
  for (const [key, value] of Object.entries(annotations)) {
    for (const why of qualifiedNameProblems(key.toLowerCase())) {
      problem(['annotations', key], 'annotation-key', invalidValue(key, why), 'key');
    }
    bytes += Buffer.byteLength(key) + (typeof value === 'string' ? Buffer.byteLength(value) : 0);
  }
  if (bytes > TOTAL_ANNOTATION_BYTES) {
    problem(
      ['annotations'],
      'annotations-size',
      `annotations may hold 256 KiB in all, not ${bytes} bytes`,
    );
  }
}

/**
 * The metadata problems of a template's metadata at `at` (a workload's pod template, an
 * ephemeral volume's claim template): `ValidatePodTemplateSpec` and
 * `ValidatePersistentVolumeClaimTemplate` check its labels and annotations only.
 */
export function templateMetadataProblems(
  metadata: unknown,
  at: readonly (string | number)[],
): SchemaProblem[] {
  if (!isPlainObject(metadata)) return [];
  const problems: SchemaProblem[] = [];
  const problem: Problem = (path, keyword, message, part = 'value') =>
    problems.push({ path: jsonPointer([...at, ...path]), part, keyword, message });
  labelProblems(metadata.labels, false, problem);
  annotationProblems(metadata.annotations, problem);
  return problems;
}

/** `ValidateFinalizers`: qualified names, not both `orphan` and `foregroundDeletion`. */
function finalizerProblems(finalizers: unknown, problem: Problem): void {
  if (!Array.isArray(finalizers)) return;
  finalizers.forEach((finalizer: unknown, i) => {
    if (typeof finalizer !== 'string') return;
    for (const message of qualifiedNameProblems(finalizer)) {
      problem(['finalizers', i], 'finalizer', invalidValue(finalizer, message));
    }
  });
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    problem(
      ['finalizers'],
      'finalizer',
      invalidStructValue(finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'),
    );
  }
}

/**
 * `ValidateOwnerReferences`: each names a version, a kind, a name and a uid, is no v1 Event (a
 * banned owner), and one at most is the controller.
 */
function ownerReferenceProblems(references: unknown, problem: Problem): void {
  if (!Array.isArray(references)) return;
  let controller: string | undefined;
  references.forEach((reference: unknown, i) => {
    if (!isPlainObject(reference)) return;
    const { apiVersion, kind, name, uid } = reference;
    const at = ['ownerReferences', i];
    const version = typeof apiVersion === 'string' ? ownerVersion(apiVersion) : undefined;
    if (version?.version === '') {
      problem(
        [...at, 'apiVersion'],
        'owner',
        invalidValue(apiVersion, 'version must not be empty'),
      );
    }
    for (const [field, value] of [
      ['kind', kind],
      ['name', name],
      ['uid', uid],
    ] as const) {
      if (value === '')
        problem([...at, field], 'owner', invalidValue('', `${field} must not be empty`));
    }
    if (version?.group === '' && version.version === 'v1' && kind === 'Event') {
      problem(
        at,
        'owner',
        invalidStructValue(reference, '/v1, Kind=Event is disallowed from being an owner'),
      );
    }
    if (reference.controller === true) {
      const current = `${String(kind)}/${String(name)}`;
      if (controller === undefined) controller = current;
      else {
        problem(
          ['ownerReferences'],
          'owner',
          invalidStructValue(
            references,
            `Only one reference can have Controller set to true. Found "true" in references for ${controller} and ${current}`,
          ),
        );
      }
    }
  });
}

/** `schema.ParseGroupVersion` of an owner's apiVersion; a version empty when it does not parse. */
function ownerVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion.split('/').length > 2) return { group: '', version: '' };
  return splitApiVersion(apiVersion);
}

/** The messages of the Go name check a rule stands for (`ValidateObjectMeta`'s `nameFn`). */
function nameProblems(name: string, rule: NameRule): string[] {
  switch (rule) {
    case 'path-segment':
      return pathSegmentProblems(name);
    case 'dns-1123-label':
      return dns1123LabelProblems(name);
    case 'dns-1035-label':
      return dns1035LabelProblems(name);
    case 'dns-1123-subdomain':
      return dns1123SubdomainProblems(name);
  }
}
