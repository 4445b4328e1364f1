/**
 * An edit step's `patch`, as `kubectl patch --type merge` applies it: which fields of the object
 * a reference names it may set (`patchedShape`, `patchObject`), merged by RFC 7386 (`mergePatch`).
 */

import { OBSERVED_STATUS_TYPE } from '../../engine/resource/observed-status.js';
import { isPlainObject } from '../../loaders/manifest-document.js';
import type { ManifestDraft, TestProject } from '../test-project.js';
import type { ResourceRef } from './scenario.js';

/**
 * How an edit's `patch` reads the object a reference names (see {@link patchObject}); a
 * Kubernetes kind with the status subresource names its kind.
 */
export type PatchedShape = 'kubernetes' | 'cosi' | 'observed' | { readonly statusOf: string };

export function patchedShape(project: TestProject, ref: ResourceRef): PatchedShape {
  const definition = project.project.registry.resolve(ref.type);
  if (definition.type === OBSERVED_STATUS_TYPE) return 'observed';
  if (definition.kubernetes?.statusSubresource === true) {
    return { statusOf: definition.kubernetes.kind };
  }
  return definition.kubernetes === undefined ? 'cosi' : 'kubernetes';
}

/**
 * Merges an edit's `patch` into a manifest as `kubectl patch --type merge` merges it into the
 * object: a Kubernetes kind's fields (`spec`, `data`, ...), a cosi type's `spec`, an observed
 * status's `status` (the object it observes), and the labels and annotations of its `metadata`
 * (`null` removes them all). What names the object (`apiVersion`, `kind`, `metadata.name`,
 * `metadata.namespace`) cannot be patched, as kubectl cannot: the step says so.
 */
export function patchObject(
  draft: ManifestDraft<Record<string, unknown>>,
  patch: Readonly<Record<string, unknown>>,
  shape: PatchedShape,
): void {
  const { metadata, apiVersion, kind, ...body } = patch;
  const naming = [
    ...(apiVersion === undefined ? [] : ['apiVersion']),
    ...(kind === undefined ? [] : ['kind']),
    ...(isPlainObject(metadata)
      ? ['name', 'namespace', 'type', 'id']
          .filter((key) => key in metadata)
          .map((k) => `metadata.${k}`)
      : []),
  ];
  if (naming.length > 0) {
    throw new Error(
      `patch: ${naming.join(', ')} name the object, and a patch cannot change which object it is: edit only what it holds`,
    );
  }
  if (typeof shape === 'object' && body.status !== undefined) {
    // kubectl patch writes status only with --subresource=status; the object's patch drops it.
    throw new Error(
      `patch: ${shape.statusOf} has the status subresource, and the API server drops status from a patch of the object (kubectl patch --type merge writes it only with --subresource=status): a kro instance's status is its RGD's to write (give the status of what it renders as an observed status), another kind's its controller's`,
    );
  }
  const allowed =
    shape === 'kubernetes' || typeof shape === 'object'
      ? undefined
      : shape === 'cosi'
        ? 'spec'
        : 'status';
  const unknown = Object.keys(body).filter((key) => allowed !== undefined && key !== allowed);
  if (unknown.length > 0) {
    const what =
      shape === 'cosi'
        ? 'a cosi resource has metadata and spec'
        : 'an observed status has metadata and status';
    throw new Error(`patch: ${what}, not ${unknown.map((k) => JSON.stringify(k)).join(', ')}`);
  }
  if (shape === 'kubernetes' || typeof shape === 'object') {
    draft.spec = mergePatch(draft.spec, body) as Record<string, unknown>;
  } else if (shape === 'cosi' && body.spec !== undefined) {
    draft.spec = mergePatch(draft.spec, body.spec) as Record<string, unknown>;
  } else if (shape === 'observed' && body.status !== undefined) {
    draft.spec = mergePatch(draft.spec, { status: body.status }) as Record<string, unknown>;
  }
  if (isPlainObject(metadata)) {
    const { labels, annotations } = metadata;
    if (labels !== undefined) {
      draft.labels = (mergePatch(draft.labels, labels) ?? {}) as Record<string, string>;
    }
    if (annotations !== undefined) {
      draft.annotations = (mergePatch(draft.annotations, annotations) ?? {}) as Record<
        string,
        string
      >;
    }
  }
}

/** RFC 7386 JSON merge patch: objects merge key by key, `null` removes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const base = new Map(
    typeof target === 'object' && target !== null && !Array.isArray(target)
      ? Object.entries(target)
      : [],
  );
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) base.delete(key);
    else base.set(key, mergePatch(base.get(key), value));
  }
  return Object.fromEntries(base);
}
