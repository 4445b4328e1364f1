/**
 * A manifest annotated `cosi.dev/observed: "true"`: the status a cluster's controllers would
 * report of a resource a kro RGD renders (`engine/resource/observed-status.ts`). It is loaded as
 * an `ObservedStatuses.cosi.dev` resource, not as the object it names: only its identity and
 * `status` are read, and the status is checked against its kind's schema (a field the kind does
 * not have, a value of the wrong type), as the API server checks a write to `/status`.
 */

import type { ResourceDefinition } from '../engine/resource/definition.js';
import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import {
  OBSERVED_ANNOTATION,
  OBSERVED_STATUS_TYPE,
  observedStatusId,
  type ObservedStatusSpec,
} from '../engine/resource/observed-status.js';
import type { DocumentReport } from './document-report.js';
import { isPlainObject } from './manifest-document.js';
import type { ManifestHeader } from './manifest-header.js';

/** Where the annotation is in a document, as a JSON pointer. */
const ANNOTATION_POINTER = `/metadata/annotations/${OBSERVED_ANNOTATION.replace(/\//g, '~1')}`;

/** Whether a document is annotated as an observed status (`"false"` leaves it a manifest). */
export function isObservedDocument(header: ManifestHeader): boolean {
  const value = header.annotations[OBSERVED_ANNOTATION];
  return value !== undefined && value !== 'false';
}

/**
 * Checks a status against its kind's schema, reporting its problems, and returns it with the
 * kind's defaults (`undefined`: as given).
 */
export type StatusCheck = (report: DocumentReport) => Record<string, unknown> | undefined;

/**
 * The header of the observed status `header` gives, its status checked and defaulted by
 * `checkStatus`; or `undefined`, reported, when it cannot be one (not a Kubernetes object, no
 * status, an annotation that is neither `"true"` nor `"false"`). `definition` is the observed
 * kind's.
 */
export function observedStatusHeader(
  header: ManifestHeader,
  definition: ResourceDefinition,
  report: DocumentReport,
  checkStatus: StatusCheck,
): ManifestHeader | undefined {
  const value = header.annotations[OBSERVED_ANNOTATION];
  if (value !== 'true') {
    report.add(
      'observed-status',
      ANNOTATION_POINTER,
      `${OBSERVED_ANNOTATION} is "true" (this object is the status a cluster reports, not a manifest) or "false", not ${JSON.stringify(value)}`,
    );
    return undefined;
  }
  const kubernetes = header.kubernetes;
  if (kubernetes === undefined) {
    report.add(
      'observed-status',
      ANNOTATION_POINTER,
      `only a Kubernetes object (apiVersion, kind, metadata.name, status) can be observed; ${definition.type} is a cosi type, whose resources carry their status in their spec`,
    );
    return undefined;
  }
  const metadata = kubernetes.document.metadata;
  if (isPlainObject(metadata) && typeof metadata.name !== 'string' && 'generateName' in metadata) {
    // A made-up name observes nothing: an observed status names the object an RGD renders.
    report.add(
      'observed-status',
      '/metadata/generateName',
      `an observed ${kubernetes.kind} names the object it observes with metadata.name; generateName would make up a name no RGD renders`,
    );
    return undefined;
  }
  const status = kubernetes.document.status;
  if (!isPlainObject(status)) {
    report.add(
      'observed-status',
      status === undefined ? '' : '/status',
      status === undefined
        ? `an observed ${kubernetes.kind} gives the status a cluster would report: it has no status`
        : `the status of an observed ${kubernetes.kind} must be a mapping`,
    );
    return undefined;
  }
  const defaulted = checkStatus(report) ?? status;
  if (header.id === undefined) return undefined;
  const spec: ObservedStatusSpec = {
    apiVersion: kubernetes.apiVersion,
    kind: kubernetes.kind,
    type: definition.type,
    name: header.id,
    status: defaulted,
  };
  return {
    type: OBSERVED_STATUS_TYPE,
    id: observedStatusId(definition.type, header.id),
    ...(header.namespace === undefined ? {} : { namespace: header.namespace }),
    ...(header.namespaceRefused === true ? { namespaceRefused: true } : {}),
    labels: header.labels,
    annotations: header.annotations,
    spec,
  };
}

/**
 * Checks an observed status written as itself (`metadata.type: ObservedStatuses.cosi.dev`, as
 * a test's `edit` of one makes it): its `type` must be a Kubernetes kind the load knows, its id
 * `TYPE:NAME`, and its status is checked by `checkStatus` against that kind, given the object
 * it stands for. Its own schema (the fields it has) is checked as any resource's is. Returns
 * the header with its status defaulted by the kind, as one loaded from the object is.
 */
export function checkObservedSpec(
  header: ManifestHeader,
  registry: DefinitionRegistry,
  report: DocumentReport,
  checkStatus: (
    kind: ResourceDefinition,
    object: ManifestHeader,
  ) => Record<string, unknown> | undefined,
): ManifestHeader {
  if (!isPlainObject(header.spec)) return header;
  const { type, name, status, apiVersion, kind } = header.spec;
  if (typeof type !== 'string' || typeof name !== 'string') return header;
  const observed = registry.get(type);
  if (observed?.kubernetes === undefined) {
    report.add(
      'observed-status',
      '/spec/type',
      `an observed status names a Kubernetes kind the manifests or cosi know; ${JSON.stringify(type)} is none`,
    );
    return header;
  }
  const id = observedStatusId(type, name);
  if (header.id !== undefined && header.id !== id) {
    report.add(
      'observed-status',
      '/metadata/id',
      `the id of the observed status of ${type} ${JSON.stringify(name)} is ${JSON.stringify(id)}: an observed status is laid on the resource its id names`,
    );
  }
  if (!isPlainObject(status)) return header;
  const version = typeof apiVersion === 'string' ? apiVersion : observed.kubernetes.apiVersion;
  const slash = version.lastIndexOf('/');
  const defaulted = checkStatus(observed, {
    labels: {},
    annotations: {},
    id: name,
    spec: {},
    kubernetes: {
      apiVersion: version,
      group: slash < 0 ? '' : version.slice(0, slash),
      version: version.slice(slash + 1),
      kind: typeof kind === 'string' ? kind : observed.kubernetes.kind,
      document: { apiVersion: version, kind, metadata: { name }, status },
    },
  });
  return defaulted === undefined
    ? header
    : { ...header, spec: { ...header.spec, status: defaulted } };
}
