/**
 * A Kubernetes-shaped manifest's `metadata.ownerReferences`, as kubectl writes them (and
 * `kubectl get -o yaml` prints them): `apiVersion`, `kind`, `name`, `uid`, `controller`,
 * `blockOwnerDeletion`. Each becomes a cosi owner reference (`{ type, id, controller?,
 * blockOwnerDeletion? }`) to the object of that kind and name: in the dependent's namespace, or,
 * when the kind is cluster-scoped, the one object of that name (see `owner-scope.ts`), as the
 * garbage collector resolves it by its RESTMapper. So the garbage collector, explain and graph
 * see the owner a manifest names.
 *
 * What their shape (ValidateOwnerReferences: empty fields, an Event owner, two controllers) gets
 * wrong is the schema check's (`object-meta.ts`). Here: a key an owner reference does not have
 * (kubectl's strict field validation refuses it), and a reference the garbage collector could
 * not resolve, which is said (a warning) and left out: a kind nothing here defines, or a
 * namespaced owner of a cluster-scoped object (Kubernetes' `OwnerRefInvalidNamespace`).
 *
 * The `uid` is read and not compared: cosi gives objects no uid, and the API server gives the
 * owner a new one on create anyway; the reference is to the owner by kind and name.
 */

import type { ResourceDefinition } from '../../engine/resource/definition.js';
import type { OwnerReference } from '../../engine/resource/metadata.js';
import type { DocumentReport } from '../document-report.js';
import type { Finding } from '../finding.js';
import type { KubernetesHeader } from '../manifest-header.js';
import { isPlainObject, reportUnknownKeys } from '../manifest-document.js';
import { splitApiVersion } from './kubernetes-shape.js';

/** The keys of apimachinery's `OwnerReference`. */
const REFERENCE_KEYS: ReadonlySet<string> = new Set([
  'apiVersion',
  'kind',
  'name',
  'uid',
  'controller',
  'blockOwnerDeletion',
]);

/** Where an owner's kind is found: the load's kinds (its CRDs, the release's built-in kinds). */
export interface OwnerKinds {
  find(kind: {
    readonly group: string;
    readonly version: string;
    readonly kind: string;
  }): ResourceDefinition | undefined;
  /** As `find`, saying to `report` why there is none (a near kind, the CRD that would add it). */
  resolve(header: KubernetesHeader, report: DocumentReport): ResourceDefinition | undefined;
}

/**
 * The owner references of a Kubernetes-shaped document's `metadata`, read as the module comment
 * says, what is wrong reported to `report`. `dependent` is the document's own definition.
 */
export function readManifestOwnerReferences(
  metadata: unknown,
  dependent: ResourceDefinition,
  kinds: OwnerKinds,
  report: DocumentReport,
): OwnerReference[] {
  if (!isPlainObject(metadata) || !Array.isArray(metadata.ownerReferences)) return [];
  const references: OwnerReference[] = [];
  metadata.ownerReferences.forEach((reference: unknown, i) => {
    if (!isPlainObject(reference)) return;
    const at = ['metadata', 'ownerReferences', String(i)];
    reportUnknownKeys(reference, REFERENCE_KEYS, at, report, new Set());
    const { apiVersion, kind, name } = reference;
    // A missing or mistyped field is the schema check's finding.
    if (typeof apiVersion !== 'string' || typeof kind !== 'string' || typeof name !== 'string') {
      return;
    }
    if (apiVersion === '' || kind === '' || name === '') return;
    const pointer = `/${at.join('/')}`;
    const ownerKind = { apiVersion, ...splitApiVersion(apiVersion), kind, document: reference };
    const owner = kinds.find(ownerKind);
    if (owner === undefined) {
      // Why, in the words a document of that kind gets (did you mean, which CRD would add it).
      const why: Finding[] = [];
      kinds.resolve(ownerKind, report.withFindings(why));
      const reason =
        why[0]?.message ??
        `no kind ${kind} is served in ${apiVersion} (by the release's built-in kinds or a CustomResourceDefinition of these manifests)`;
      report.add(
        'unresolved-owner',
        `${pointer}/kind`,
        `owner ${kind} of ${apiVersion}: ${reason}; the garbage collector cannot resolve this owner and never collects the object for it; cosi leaves the reference out`,
      );
      return;
    }
    const ownerNamespaced = owner.kubernetes?.namespaced !== false;
    if (dependent.kubernetes?.namespaced === false && ownerNamespaced) {
      const dependentKind = dependent.kubernetes.kind;
      report.add(
        'unresolved-owner',
        pointer,
        `a cluster-scoped ${dependentKind} cannot be owned by a namespaced ${kind}: the garbage collector treats the reference as unresolvable (OwnerRefInvalidNamespace) and never collects the object for it; cosi leaves the reference out`,
      );
      return;
    }
    references.push({
      type: owner.type,
      id: name,
      ...(reference.controller === true ? { controller: true } : {}),
      ...(reference.blockOwnerDeletion === true ? { blockOwnerDeletion: true } : {}),
    });
  });
  return references;
}
