/**
 * The second pass of a load: every document that is not a definition gets its type resolved
 * against the definitions of the first pass (`collect-definitions.ts`), its spec checked against
 * the type's JSON Schema, and becomes a resource unless it has an error finding.
 */

import type { ResourceDefinition } from '../engine/resource/definition.js';
import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import { pointerKey, type Pointer } from '../engine/resource/pointer.js';
import type { OwnerReference } from '../engine/resource/metadata.js';
import type { DocumentReport } from './document-report.js';
import { formatLocation, type Finding, type SourceLocation } from './finding.js';
import type { ManifestResource } from './manifest-resource.js';
import { describeDocument, type ResourceDocument } from './resource-document.js';
import { LoadedResource } from './loaded-resource.js';
import { manifestDraft } from './manifest-draft.js';
import { readManifestOwnerReferences } from './kubernetes/manifest-owner-references.js';
import type { ManifestHeader } from './manifest-document.js';
import type { AppliedBy } from './applied-by.js';
import { isRevision, reportDuplicate, resourceName } from './duplicate-resource.js';
import { isIgnorableUnknownKind, resolveType, typeAt } from './resolve-document-type.js';
import {
  priorIdentity,
  type PriorRecorder,
  type PriorSpec,
  type PriorState,
} from './cel/prior-state.js';
import { isKubernetesShaped } from './kubernetes/kubernetes-shape.js';
import type { KubernetesKinds } from './kubernetes/kubernetes-kinds.js';
import type { PendingDocument } from './pending-document.js';
import { KindFilter } from './kind-filter.js';
import { identityKey } from './resource-identity.js';
import {
  checkObservedSpec,
  isObservedDocument,
  observedStatusHeader,
} from './observed-document.js';
import {
  OBSERVED_STATUS_TYPE,
  observedStatusDefinition,
} from '../engine/resource/observed-status.js';

/**
 * What the resources pass takes of the first pass (`collectDefinitions` returns it, and more):
 * the types documents resolve against and the documents waiting for this pass. The two passes
 * sit side by side, under the load that runs both, so this one names what it needs here.
 */
export interface ResolvedDefinitions {
  readonly registry: DefinitionRegistry;
  readonly kinds: KubernetesKinds;
  /** Definitions left out for their findings: where a type name's is, for an unknown type. */
  readonly invalid: { find(name: string): SourceLocation | undefined };
  readonly pending: readonly PendingDocument[];
}

/**
 * Makes the resources of the pending documents, in source order. Reports an unknown or
 * ambiguous type, a spec that breaks its type's schema (as `schemas` checks it: the load makes
 * it with `specCheckerFor`, whose findings go to the same `findings`), and a resource defined
 * twice (at the second one). A spec is checked as an update of its spec in `rules.previous`
 * when it has one there, else as a create. Findings go to `findings`.
 */
export function loadResources(
  collected: ResolvedDefinitions,
  schemas: SpecChecks,
  findings: Finding[],
  rules: LoadResourcesOptions = {},
  documents: ResourceDocument[] = [],
  /**
   * Receives the key of each document that names a resource the load did not load: the first of
   * its resource refused for errors (a later document of that key is a duplicate all the same),
   * or a test's patch of what an operator made (which an earlier step of the test may have made
   * after all, in another file: see `manifest-cache.ts`).
   */
  unloadedKeys: string[] = [],
): ManifestResource[] {
  const resources: ManifestResource[] = [];
  const seen = new Map<string, SeenDocument>();
  const { previous, recordPrior } = rules;
  const kinds = new KindFilter(rules, collected.registry, collected.kinds.builtins);
  for (const pendingDocument of collected.pending) {
    const { report, header: written, headerFindings = [] } = pendingDocument;
    let header = written;
    const status = (): ResourceDocument['status'] => (report.hasErrors ? 'invalid' : 'valid');
    const document = describeDocument(report, header);
    if (header === undefined) {
      documents.push({ ...document, status: status() });
      continue;
    }
    if (kinds.skips(header)) {
      // Skipped whole, as kubeconform skips it; but YAML kubectl cannot read (a key written
      // twice) fails it still, as it fails kubeconform before the kind is known.
      documents.push({ ...document, status: report.hasErrors ? 'invalid' : 'skipped' });
      continue;
    }
    if (kinds.rejects(header)) {
      report.add(
        'rejected-kind',
        header.kubernetes ? '/kind' : '/metadata/type',
        `${document.kind} is rejected here (--reject-kinds)`,
      );
      documents.push({ ...document, status: 'invalid' });
      continue;
    }
    const reviewedCase = pendingDocument.appliedBy?.policyTest === 'case';
    if (reviewedCase && isAdmissionReview(header)) {
      // A policy test's review of a request as a webhook gets it (an UPDATE, a DELETE).
      documents.push({ ...document, status: 'skipped' });
      continue;
    }
    if (
      rules.ignoreUnknownKinds === true &&
      header.kubernetes !== undefined &&
      collected.kinds.find(header.kubernetes) === undefined &&
      isIgnorableUnknownKind(collected.kinds, header.kubernetes, report)
    ) {
      documents.push({ ...document, status: 'skipped' });
      continue;
    }
    // A policy test's case says its kind's problems only once it is known to be checked.
    const kindFindings: Finding[] = [];
    const kindReport = reviewedCase ? report.withFindings(kindFindings) : report;
    const kindDefinition =
      header.kubernetes === undefined
        ? resolveType(header.type, collected.registry, report, collected.invalid)
        : collected.kinds.resolve(header.kubernetes, kindReport);
    if (kindDefinition === undefined && reviewedCase && kindFindings.every(isRemovedApi)) {
      // A policy test's object of an API Kubernetes removed: what a policy against them tests.
      documents.push({ ...document, status: 'skipped' });
      continue;
    }
    report.adopt(kindFindings);
    let definition = kindDefinition;
    if (definition === undefined) {
      // Its metadata's findings are left out: the kind is the document's problem.
      documents.push({ ...document, status: status() });
      const identity = recordPrior === undefined ? undefined : priorIdentity(header);
      if (identity !== undefined)
        recordPrior?.unresolved(identity, report.location(typeAt(header)));
      continue;
    }
    report.adopt(headerFindings);
    if (definition.kubernetes?.namespaced === false && header.namespace !== undefined) {
      // The API server clears it (its BeforeCreate), and kubectl applies such a file: a
      // warning, and the resource is the one the cluster would store.
      report.add(
        'ignored-namespace',
        '/metadata/namespace',
        `${definition.kubernetes.kind} is cluster-scoped: the API server ignores metadata.namespace; remove it`,
      );
      header = { ...header, namespace: undefined };
    }
    if (definition.type !== OBSERVED_STATUS_TYPE && isObservedDocument(header)) {
      // The status a cluster would report of the object, not the object: a resource of its own.
      const [kind, object] = [definition, header];
      const observed = observedStatusHeader(object, kind, report, (at) =>
        schemas.checkStatus(kind, object, at),
      );
      if (observed === undefined) {
        documents.push({ ...document, status: status() });
        continue;
      }
      // A namespaced object that names no namespace is in its file's (a test's), if it has one.
      const inFile =
        kind.kubernetes?.namespaced === true ? pendingDocument.appliedBy?.namespace : undefined;
      header =
        observed.namespace === undefined && inFile !== undefined
          ? { ...observed, namespace: inFile }
          : observed;
      definition = observedDefinitionIn(collected.registry);
    } else if (definition.type === OBSERVED_STATUS_TYPE && header.kubernetes === undefined) {
      // An observed status written (or edited, in a test) as itself: it must name a Kubernetes
      // kind, by its own id, and its status is checked against that kind's, as the object's is.
      header = checkObservedSpec(header, collected.registry, report, (kind, object) =>
        schemas.checkStatus(kind, object, report),
      );
    }
    // A namespaced object that names no namespace is in its file's (a test's), if it has one.
    const { appliedBy } = pendingDocument;
    const fileNamespace =
      definition.kubernetes?.namespaced === true ? appliedBy?.namespace : undefined;
    const pointer =
      header.id === undefined
        ? undefined
        : {
            namespace: header.namespace ?? fileNamespace ?? definition.defaultNamespace,
            type: definition.type,
            id: header.id,
          };
    const key = pointer === undefined ? undefined : pointerKey(pointer);
    // Duplicates are told by the object, whichever of its kind's API versions writes it.
    const identity = pointer === undefined ? undefined : identityKey(pointer, definition);
    const earlier =
      identity === undefined || header.namespaceRefused === true ? undefined : seen.get(identity);
    const revision = earlier !== undefined && isRevision(earlier.appliedBy, appliedBy);
    // A test's later step updates what its earlier one made: the update of that revision, with
    // its transition rules and ratcheting, as the API server checks it.
    const prior =
      revision && earlier.prior !== undefined
        ? earlier.prior
        : key === undefined || previous === undefined
          ? undefined
          : priorOf(previous, key, header, report);
    if (appliedBy?.policyTest !== undefined) {
      // A policy test's constraint or case, which it uses on its own: no part of the run. A
      // case's object is reviewed as written: its shape is checked (a misspelt or mistyped
      // field makes the case test nothing), not what the API server's validation would refuse.
      if (appliedBy.policyTest === 'whole') schemas.check(definition, header, report, undefined);
      else {
        const found: Finding[] = [];
        schemas.check(definition, header, report.withFindings(found), undefined, false);
        report.adopt(found.filter((finding) => SHAPE_RULES.has(finding.rule ?? '')));
      }
      documents.push({ ...document, status: status() });
      if (identity !== undefined) unloadedKeys.push(identity);
      continue;
    }
    if (!revision && patchesExisting(appliedBy, header)) {
      // A test's apply of what an operator made (the test asserted it first): a patch chainsaw
      // or kuttl merges into it, so only what it writes is checked, not the whole object's
      // required fields nor its rules; the object is the operator's, not the run's.
      const found: Finding[] = [];
      schemas.check(definition, header, report.withFindings(found), undefined, false);
      report.adopt(found.filter((finding) => finding.rule !== 'required'));
      documents.push({ ...document, status: status() });
      if (identity !== undefined) unloadedKeys.push(identity);
      continue;
    }
    const { spec, defaulted } = schemas.check(definition, header, report, prior);
    if (pointer === undefined || key === undefined || identity === undefined) {
      documents.push({ ...document, status: status() });
      continue;
    }
    if (recordPrior !== undefined) {
      recordPrior.resolved(
        key,
        header.kubernetes === undefined ? undefined : priorIdentity(header),
        priorSpecOf(header, spec),
      );
      documents.push({ ...document, status: status() });
      continue;
    }
    if (earlier !== undefined && !revision) {
      reportDuplicate(resourceName(pointer, definition), earlier, definition, report, idPointer);
    }
    const owners =
      header.kubernetes === undefined
        ? []
        : readManifestOwnerReferences(
            header.kubernetes.document.metadata,
            definition,
            collected.kinds,
            report,
          );
    documents.push({ ...document, status: status() });
    if (report.hasErrors) {
      // Refused: a revision leaves the one before; a first document is still the first.
      if (earlier === undefined && header.namespaceRefused !== true) {
        seen.set(identity, { report, definition, appliedBy, at: undefined, prior: undefined });
        unloadedKeys.push(identity);
      }
      continue;
    }
    const accepted = priorSpecOf(header, spec);
    const resource = toManifestResource(
      key,
      pointer,
      { ...header, spec },
      definition,
      report,
      rules.positions,
      defaulted,
      owners,
    );
    if (revision && earlier.at !== undefined) {
      // A test's later step applies the object again: an update, which the cluster holds.
      resources[earlier.at] = resource;
      seen.set(identity, { ...earlier, prior: accepted });
      continue;
    }
    if (header.namespaceRefused !== true && (earlier === undefined || revision)) {
      const first = earlier ?? { report, definition };
      seen.set(identity, { ...first, appliedBy, at: resources.length, prior: accepted });
    }
    resources.push(resource);
  }
  return resources;
}

/**
 * The first document of each resource a load meets: where it is in the load's resources (`at`:
 * not there when it had errors), and the test that applies its file (a later document of that
 * test is a revision).
 */
interface SeenDocument {
  readonly report: DocumentReport;
  /** Its definition: the API version it is written in, which a later one's may not be. */
  readonly definition: ResourceDefinition;
  readonly appliedBy: AppliedBy | undefined;
  readonly at: number | undefined;
  /** The revision the cluster holds, which a later step's apply updates (none if refused). */
  readonly prior: PriorSpec | undefined;
}

/**
 * Whether a document is a test's apply of an object the test asserted before it applied any
 * revision of it (`AppliedBy.existing`): one an operator made, which the apply patches.
 */
function patchesExisting(appliedBy: AppliedBy | undefined, header: ManifestHeader): boolean {
  const kind = header.kubernetes?.kind;
  const existing = appliedBy?.existing;
  if (kind === undefined || existing === undefined || header.id === undefined) return false;
  return existing.includes(`${kind}/${header.id}`) || existing.includes(`${kind}/*`);
}

/** The findings about an object's shape: its fields' names and types, as it decodes. */
const SHAPE_RULES: ReadonlySet<string> = new Set(['type', 'unknown-field']);

/** Whether a finding says a kind's API was removed from Kubernetes. */
const isRemovedApi = (finding: Finding): boolean => finding.rule === 'removed-api';

/** Whether a document is an `AdmissionReview`: a webhook's request, which a policy test reviews. */
function isAdmissionReview(header: ManifestHeader): boolean {
  return (
    header.kubernetes?.group === 'admission.k8s.io' && header.kubernetes.kind === 'AdmissionReview'
  );
}

/** A document as a later revision of its resource is checked against: its spec, and metadata. */
function priorSpecOf(header: ManifestHeader, spec: unknown): PriorSpec {
  const kubernetes = header.kubernetes;
  return kubernetes === undefined ? { spec } : { spec, metadata: kubernetes.document.metadata };
}

/**
 * What the resources pass needs of the check of a spec against its type (`spec-checker.ts` makes
 * the one of a load, of its definitions and release): the spec to keep, and what the type's
 * defaults filled in (pointers into `{ metadata, spec }`).
 */
export interface SpecChecks {
  /** Checks a document's spec (all of a Kubernetes-shaped one); the rules unless `withRules` is false. */
  check(
    definition: ResourceDefinition,
    header: ManifestHeader,
    report: DocumentReport,
    previous: PriorSpec | undefined,
    withRules?: boolean,
  ): { readonly spec: unknown; readonly defaulted?: readonly string[] };
  /** Checks an observed object's status; returns it with its kind's defaults. */
  checkStatus(
    definition: ResourceDefinition,
    header: ManifestHeader,
    report: DocumentReport,
  ): Record<string, unknown> | undefined;
}

/** What {@link loadResources} takes beside the definitions. */
export interface LoadResourcesOptions {
  readonly previous?: PriorState;
  readonly skipRules?: boolean;
  /** Loading a previous revision: record each resource (or unresolved identity) here. */
  readonly recordPrior?: PriorRecorder;
  readonly positions?: boolean;
  /** Kinds (or cosi types) whose documents are neither checked nor loaded (kubeconform's `-skip`). */
  readonly skipKinds?: readonly string[];
  /** Kinds whose documents are errors (kubeconform's `-reject`). */
  readonly rejectKinds?: readonly string[];
  /**
   * A Kubernetes-shaped document of a kind nothing defines is skipped, not an error
   * (kubeconform's `-ignore-missing-schemas`).
   */
  readonly ignoreUnknownKinds?: boolean;
}

/**
 * A resource's previous revision: by its key, else by its identity (`PriorState.find`). A
 * previous document of the same identity whose type did not resolve there is reported: the
 * resource is then checked as a create, but not silently.
 */
function priorOf(
  previous: PriorState,
  key: string,
  header: ManifestHeader,
  report: DocumentReport,
): PriorSpec | undefined {
  const prior = previous.get(key);
  if (prior !== undefined || previous.find === undefined) return prior;
  const identity = priorIdentity(header);
  const found = identity === undefined ? undefined : previous.find(identity);
  if (found === undefined || !('unresolved' in found)) return found;
  report.add(
    'previous-unresolved',
    typeAt(header),
    `its previous revision at ${formatLocation(found.unresolved)} has a type that neither that revision nor this one defines, so it is checked as a create (no transition rules, no ratcheting): give the definition with --definitions`,
    { related: found.unresolved },
  );
  return undefined;
}

/** The definition of observed statuses, registered in `registry` by the first that needs it. */
function observedDefinitionIn(registry: DefinitionRegistry): ResourceDefinition {
  if (!registry.has(observedStatusDefinition.type)) registry.register(observedStatusDefinition);
  return observedStatusDefinition;
}

/** Where a document names its id: `metadata.name` in a Kubernetes-shaped one. */
function idPointer(report: DocumentReport): string {
  return isKubernetesShaped(report.document.value) ? '/metadata/name' : '/metadata/id';
}

function toManifestResource(
  key: string,
  pointer: Pointer,
  header: ManifestHeader,
  definition: ResourceDefinition,
  report: DocumentReport,
  positions = true,
  defaulted?: readonly string[],
  owners: OwnerReference[] = [],
): ManifestResource {
  const document = report.document;
  const draft = manifestDraft(pointer, header.spec, header.labels, header.annotations, owners);
  const loaded = new LoadedResource(
    key,
    draft,
    definition,
    {
      file: document.file,
      line: report.position.line,
      col: report.position.col,
      document: document.index,
    },
    positions ? document.source : undefined,
    // A list item's pointers are inside its list.
    report.pointer(''),
    header.kubernetes !== undefined
      ? 'kubernetes'
      : definition.type === OBSERVED_STATUS_TYPE && isKubernetesShaped(document.value)
        ? 'observed'
        : 'cosi',
  );
  if (defaulted !== undefined) loaded.defaulted = defaulted;
  return loaded;
}
