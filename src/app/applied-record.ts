import type { ResourceDefinition } from '../engine/resource/definition.js';
import { isRecord } from '../engine/resource/plain-data.js';
import type { Pointer } from '../engine/resource/pointer.js';
import type { NamedOwner } from '../engine/state/apply-over.js';
import { controllerSpecFields } from './controller-spec-fields.js';

/**
 * What `cosi run`'s applied set records of a resource it applied from a manifest, as kubectl's
 * last-applied record keeps what an apply set: its pointer, the labels and annotations its
 * manifest set (their keys are kept), the owners its owner references name, and the spec fields
 * controllers also write (a Kubernetes kind's `status`) that its manifest set. The next run
 * removes those the manifest dropped, and keeps a controller's.
 */
export interface AppliedRecord extends Pointer {
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly ownerReferences?: readonly NamedOwner[];
  readonly specFields?: readonly string[];
}

/**
 * The record of a resource applied with `metadata` and `spec` (a manifest's, or what the
 * applier last applied of one), of the type `definition` defines.
 */
export function appliedRecord(
  metadata: AppliedRecord,
  spec: unknown,
  definition: ResourceDefinition | undefined,
): AppliedRecord {
  const kept = controllerSpecFields(definition);
  if (kept.length === 0 || !isRecord(spec)) return metadata;
  const specFields = kept.filter((field) => Object.hasOwn(spec, field));
  return specFields.length === 0 ? metadata : { ...metadata, specFields };
}
