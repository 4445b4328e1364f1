/**
 * How a resource of a Kubernetes-shaped type is checked, as the API server admits a custom
 * resource: defaults applied first (`defaulting.ts`), then the whole document checked against the
 * schema (`apiVersion`, `kind`, `metadata` and the rest, as `openAPIV3Schema` describes it), then
 * the fields the schema does not declare reported (`unknown-fields.ts`). The resource keeps the
 * defaulted fields.
 */

import type { JsonSchema, ResourceDefinition } from '../../engine/resource/definition.js';
import type { DocumentReport } from '../document-report.js';
import { isPlainObject, type ManifestHeader } from '../manifest-document.js';
import { checkAgainstSchema } from '../definition-schema.js';
import type { ApiServerWording, CompiledSchema, SchemaProblem } from '../schema-compiler.js';
import { applyDefaults } from './defaulting.js';
import { zeroNullMapElements } from './null-map-elements.js';
import { findUnknownFields } from './unknown-fields.js';
import { builtinReleaseOf } from './builtin-kinds.js';
import { splitApiVersion } from './kubernetes-shape.js';
import { objectMetaProblems, templateMetadataProblems } from './object-meta.js';
import { podMetadataPath, podSpecPath, valueAtPath } from './pod-spec-paths.js';
import { objectMetaTypeProblems } from './object-meta-types.js';
import { embeddedResourceProblems } from './embedded-resources.js';
import { apiWarning } from './api-warnings.js';
import { scaleReplicaProblems } from './crd-scale.js';
import { restartPolicyProblems } from './workload-restart-policy.js';
import { templateSelectorProblems } from './template-selector.js';
import { containerProblems } from './container-checks.js';
import { hostPortProblems } from './host-ports.js';
import { podSpecFieldProblems } from './pod-spec-fields.js';
import { labelMapFieldProblems } from './label-map-fields.js';
import { servicePortProblems } from './service-ports.js';
import { serviceSpecProblems } from './service-spec.js';
import { endpointsProblems } from './endpoints.js';
import { persistentVolumeClaimProblems } from './persistent-volume-claims.js';
import { persistentVolumeProblems } from './persistent-volumes.js';
import { storageClassProblems } from './storage-classes.js';
import { storageWarningProblems } from './storage-warnings.js';
import { admissionPolicyProblems } from './admission-policies.js';
import { leaseProblems } from './leases.js';
import { namespaceProblems } from './namespaces.js';
import { webhookConfigurationProblems } from './webhook-configurations.js';
import { horizontalPodAutoscalerProblems } from './horizontal-pod-autoscalers.js';
import { priorityClassProblems } from './priority-classes.js';
import { limitRangeProblems } from './limit-ranges.js';
import { resourceQuotaProblems } from './resource-quotas.js';
import { apiServiceProblems } from './api-services.js';
import { runtimeClassProblems } from './runtime-classes.js';
import { podFailurePolicyProblems } from './pod-failure-policy.js';
import { defaultOffApiProblems } from './default-off-apis.js';
import {
  admissionExpressionProblems,
  holdsAdmissionExpressions,
  type AdmissionCel,
} from './admission-expressions.js';
import { volumeProblems } from './pod-volumes.js';
import { isKyvernoPolicy, kyvernoPolicyProblems } from './kyverno-policies.js';
import { certificateProblems, isCertificate } from './cert-manager-certificates.js';
import { isIssuer, issuerProblems } from './cert-manager-issuers.js';
import type { ClusterScope } from './kyverno-match.js';
import { probeProblems } from './container-probes.js';
import { containerEnvProblems } from './container-env.js';
import { roleBindingProblems } from './rbac-bindings.js';
import { policyRuleProblems } from './rbac-rules.js';
import { disruptionBudgetProblems } from './disruption-budgets.js';
import { configDataProblems } from './config-data.js';
import { csiDriverProblems } from './csi-drivers.js';
import { rolloutBoundsProblems } from './rollout-bounds.js';
import { templateDeadlineProblems } from './template-deadline.js';
import { batchJobProblems } from './batch-jobs.js';
import { ingressProblems } from './ingresses.js';
import { networkPolicyProblems } from './network-policies.js';
import { dropDefaultedEmptyStrings } from './empty-defaults.js';
import { securityContextProblems } from './security-contexts.js';
import { affinityProblems } from './pod-affinity.js';
import { topologySpreadProblems } from './topology-spread.js';
import { tolerationProblems } from './pod-tolerations.js';
import { podDnsProblems } from './pod-dns.js';
import { podGateProblems } from './pod-gates.js';
import { podAnnotationProblems } from './pod-annotations.js';
import { podWarningProblems } from './pod-warnings.js';
import { windowsHostProcessProblems } from './windows-host-process.js';
import { ephemeralContainerProblems } from './ephemeral-containers.js';

/** How {@link checkKubernetesDocument} checks a document. */
export interface KubernetesDocumentOptions {
  /** On an update, the previous document, against which the schema's problems ratchet. */
  readonly previous?: Record<string, unknown> | undefined;
  /**
   * Compiles a CEL expression in the load's dialect (admission policies' expressions,
   * `admission-expressions.ts`); without it they are not checked.
   */
  readonly cel?: AdmissionCel;
  /** The release whose API server's words the schema's problems are in. */
  readonly wording?: ApiServerWording;
  /**
   * Whether a kind the document names is cluster-scoped (Kyverno's policies), as the load's
   * definitions and built-in kinds tell; without it, no kind's scope is known.
   */
  readonly isClusterScoped?: ClusterScope;
  /**
   * When given, gets the JSON pointer (into the document) of each value the schema's defaults
   * filled in, outermost first.
   */
  readonly defaulted?: string[];
}

/**
 * Checks a document of a Kubernetes-shaped type, reporting each problem at its node, and returns
 * the resource's spec: the document's top-level fields but `apiVersion`, `kind` and `metadata`,
 * with defaults. A cosi-shaped document of such a type (`{ metadata: { type, id }, spec }`) is
 * checked as the Kubernetes document it stands for.
 */
export function checkKubernetesDocument(
  definition: ResourceDefinition,
  header: ManifestHeader,
  compiled: CompiledSchema,
  report: DocumentReport,
  options: KubernetesDocumentOptions = {},
): unknown {
  const { cel, wording, isClusterScoped } = options;
  let { previous } = options;
  const schema = definition.schema;
  const kind = definition.kubernetes;
  if (schema === undefined || kind === undefined) return header.spec;
  let document: Record<string, unknown>;
  let at: string;
  if (header.kubernetes !== undefined) {
    document = structuredClone(header.kubernetes.document);
    at = '';
  } else if (isPlainObject(header.spec)) {
    document = kubernetesDocumentOf(definition, header, structuredClone(header.spec));
    at = '/spec';
  } else {
    report.add(
      'wrong-type',
      '/spec',
      `the spec of a ${kind.kind} holds its top-level fields (spec, status, ...): it must be a mapping`,
    );
    return header.spec;
  }
  if (kind.statusSubresource === true && 'status' in document) {
    // The API server drops it (the status subresource is the only way to write one) before it
    // validates, so it is not checked; a status with content is said, once.
    if (!isEmptyStatus(document.status)) {
      report.add(
        'ignored-status',
        `${at}/status`,
        `${kind.kind} has the status subresource: the API server drops status written with the object (only a write to /status sets it), so it is neither checked nor kept`,
      );
    }
    delete document.status;
    if (previous !== undefined && 'status' in previous) {
      const { status: _, ...rest } = previous;
      previous = rest;
    }
  }
  const { group } = splitApiVersion(kind.apiVersion);
  const release = builtinReleaseOf(definition);
  if (release !== undefined && !('spec' in document) && specIsStruct(schema)) {
    // A built-in kind's spec is a struct the API server never lacks: no spec is `spec: {}`,
    // and what that requires (a Pod's containers, a Deployment's selector) is reported; a spec
    // the OpenAPI marks required but whose fields are all optional (a CSIDriver's, defaulted
    // by the API server) is no finding.
    document.spec = {};
  }
  if (release !== undefined) {
    dropDefaultedEmptyStrings(document, group, kind.kind);
    // Go keeps a null map element as its zero value where a custom resource's is pruned (below).
    zeroNullMapElements(document, schema);
  }
  applyDefaults(document, schema, options.defaulted);
  const unknown = [
    // A CRD that keeps unknown fields (spec.preserveUnknownFields) prunes nothing.
    ...(kind.keepsUnknownFields === true ? [] : findUnknownFields(document, schema)),
    ...objectMetaProblems(document.metadata, group, kind.kind, release !== undefined, document),
    ...(release !== undefined ? podTemplateMetadataOf(document, group, kind.kind) : []),
    ...(release === undefined
      ? [
          // A built-in kind's schema types its metadata; a CRD's says `type: object`.
          ...objectMetaTypeProblems(document.metadata, ROOT_METADATA),
          ...embeddedResourceProblems(document, schema),
          ...scaleReplicaProblems(document, kind.scale),
          ...(kind.deprecationWarning === undefined
            ? []
            : [apiWarning(['apiVersion'], kind.deprecationWarning)]),
          // A Kyverno CEL policy's expressions, parsed (by Kyverno's webhook).
          ...(cel !== undefined && holdsAdmissionExpressions(group, kind.kind)
            ? byAdmission(admissionExpressionProblems(document, group, kind.kind, cel))
            : []),
          // A cert-manager Certificate or issuer, as cert-manager's webhook checks it, and a
          // Kyverno policy, as Kyverno checks it when it is written: after the API server.
          ...byAdmission([
            ...(isCertificate(group, kind.kind) ? certificateProblems(document) : []),
            ...(isIssuer(group, kind.kind) ? issuerProblems(document) : []),
            ...(isKyvernoPolicy(group, kind.kind)
              ? kyvernoPolicyProblems(
                  document,
                  group,
                  kind.kind,
                  isClusterScoped ?? (() => undefined),
                )
              : []),
          ]),
        ]
      : []),
    ...(release !== undefined
      ? [
          ...restartPolicyProblems(document, group, kind.kind),
          ...templateSelectorProblems(document, group, kind.kind),
          ...volumeProblems(document, group, kind.kind),
          ...containerProblems(document, group, kind.kind, release),
          ...hostPortProblems(document, group, kind.kind),
          ...podSpecFieldProblems(document, group, kind.kind),
          ...labelMapFieldProblems(document, group, kind.kind),
          ...containerEnvProblems(document, group, kind.kind, release),
          ...probeProblems(document, group, kind.kind, release),
          ...securityContextProblems(document, group, kind.kind, release),
          ...affinityProblems(document, group, kind.kind, release),
          ...topologySpreadProblems(document, group, kind.kind),
          ...podDnsProblems(document, group, kind.kind, release),
          ...podGateProblems(document, group, kind.kind),
          ...podAnnotationProblems(document, group, kind.kind),
          ...podWarningProblems(document, group, kind.kind, release),
          ...windowsHostProcessProblems(document, group, kind.kind),
          ...tolerationProblems(document, group, kind.kind),
          ...ephemeralContainerProblems(document, group, kind.kind),
          ...servicePortProblems(document, group, kind.kind),
          ...serviceSpecProblems(document, group, kind.kind, release),
          ...endpointsProblems(document, group, kind.kind, release),
          ...persistentVolumeClaimProblems(document, group, kind.kind, release),
          ...persistentVolumeProblems(document, group, kind.kind),
          ...storageWarningProblems(document, group, kind.kind),
          ...storageClassProblems(document, group, kind.kind),
          ...csiDriverProblems(document, group, kind.kind),
          ...webhookConfigurationProblems(document, group, kind.kind),
          ...admissionPolicyProblems(document, group, kind.kind),
          ...horizontalPodAutoscalerProblems(document, group, kind.kind),
          ...priorityClassProblems(document, group, kind.kind),
          ...namespaceProblems(document, group, kind.kind),
          ...leaseProblems(document, group, kind.kind),
          ...limitRangeProblems(document, group, kind.kind),
          ...resourceQuotaProblems(document, group, kind.kind),
          ...apiServiceProblems(document, group, kind.kind),
          ...runtimeClassProblems(document, group, kind.kind),
          ...podFailurePolicyProblems(document, group, kind.kind),
          ...defaultOffApiProblems(document),
          // CEL is loaded only for the documents that write admission expressions.
          ...(cel !== undefined && holdsAdmissionExpressions(group, kind.kind)
            ? admissionExpressionProblems(document, group, kind.kind, cel)
            : []),
          ...roleBindingProblems(document, group, kind.kind),
          ...policyRuleProblems(document, group, kind.kind),
          ...disruptionBudgetProblems(document, group, kind.kind),
          ...configDataProblems(document, group, kind.kind),
          ...rolloutBoundsProblems(document, group, kind.kind),
          ...templateDeadlineProblems(document, group, kind.kind),
          ...batchJobProblems(document, group, kind.kind, release),
          ...ingressProblems(document, group, kind.kind),
          ...networkPolicyProblems(document, group, kind.kind, release),
        ]
      : []),
  ];
  const old = previous === undefined ? undefined : { value: previous, schema, typeMeta: true };
  checkAgainstSchema(compiled, document, at, report, unknown, old, wording);
  const spec: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) {
    if (key !== 'apiVersion' && key !== 'kind' && key !== 'metadata') spec[key] = value;
  }
  return spec;
}

/** Problems an admission webhook finds, after the API server's own checks. */
function byAdmission(problems: readonly SchemaProblem[]): SchemaProblem[] {
  return problems.map((problem) => ({ ...problem, admission: true }));
}

/** A custom resource's metadata fields the manifest's header does not read itself. */
const ROOT_METADATA = {
  at: ['metadata'],
  skip: new Set(['name', 'generateName', 'namespace', 'labels', 'annotations']),
  unknownKeys: false,
} as const;

/** The label and annotation problems of a built-in workload's pod template (`ValidatePodTemplateSpec`). */
function podTemplateMetadataOf(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  const specAt = podSpecPath(group, kind);
  if (specAt === undefined || specAt.length < 2) return [];
  const at = podMetadataPath(specAt);
  return templateMetadataProblems(valueAtPath(document, at), at);
}

/**
 * Whether a missing `spec` is read as `spec: {}`: the kind's schema requires it, or it requires
 * fields of its own.
 */
function specIsStruct(schema: JsonSchema): boolean {
  const properties = schema.properties;
  const spec = isPlainObject(properties) ? properties.spec : undefined;
  const rootRequires = Array.isArray(schema.required) && schema.required.includes('spec');
  return (
    rootRequires ||
    (isPlainObject(spec) && Array.isArray(spec.required) && spec.required.length > 0)
  );
}

/** `status: {}` or `status: null`, as generators and `kubectl create --dry-run -o yaml` write it. */
function isEmptyStatus(status: unknown): boolean {
  return status === null || (isPlainObject(status) && Object.keys(status).length === 0);
}

/**
 * The Kubernetes document a resource of a CRD's type stands for: its spec's fields (the
 * document's top-level fields) with `apiVersion`, `kind` and `metadata` (as written, or the
 * name and namespace of a cosi-shaped document).
 */
export function kubernetesDocumentOf(
  definition: ResourceDefinition,
  header: ManifestHeader,
  spec: Record<string, unknown>,
): Record<string, unknown> {
  const kind = definition.kubernetes;
  return {
    ...spec,
    apiVersion: kind?.apiVersion,
    kind: kind?.kind,
    metadata: metadataOf(header) ?? {
      name: header.id,
      namespace: header.namespace ?? definition.defaultNamespace,
    },
  };
}

/** The document's metadata, with the generated name (as rules see it) when it had none. */
function metadataOf(header: ManifestHeader): unknown {
  const metadata = header.kubernetes?.document.metadata;
  if (typeof metadata !== 'object' || metadata === null || 'name' in metadata) return metadata;
  return header.id === undefined ? metadata : { ...metadata, name: header.id };
}
