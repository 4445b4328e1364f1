import type { Pointer } from '../../engine/resource/pointer.js';
import { OBSERVED_STATUS_TYPE, observedStatusId } from '../../engine/resource/observed-status.js';
import type { WriteOp, VersionRef } from '../../engine/record/run-record.js';
import type { ExplainIndex, ManifestPosition } from './explain-source.js';
import type { TemplateOrigin } from './template-origins.js';

/** One version of a resource: who made it, what changed, what triggered the write. */
export interface VersionEntry {
  readonly version: number;
  /** `manifest`: loaded from a file; otherwise the controller's write. */
  readonly by:
    | { readonly kind: 'manifest'; readonly position?: ManifestPosition }
    | {
        readonly kind: 'reconcile';
        readonly controller: string;
        readonly seq: number;
        readonly at: number;
        readonly op: WriteOp;
        /**
         * What woke the reconcile (resource@version); `clusterScoped` when its kind is (kept in
         * namespace `default`, it is in none).
         */
        readonly triggers: readonly ScopedVersionRef[];
      };
  readonly fields: readonly string[];
}

/** A version of a resource that says when its kind is cluster-scoped, as a lineage node does. */
export type ScopedVersionRef = VersionRef & { readonly clusterScoped?: true };

/** Who set one field last. */
export interface FieldBlame {
  /**
   * JSON pointer into the resource's document: `{ metadata, spec }`, or a Kubernetes object's
   * own (`/spec/replicas`, `/data/a`; see `ExplainIndex.documentField`).
   */
  readonly field: string;
  readonly version: number;
  readonly by:
    | {
        readonly kind: 'manifest';
        readonly position: ManifestPosition;
        /** Left out of the manifest and filled in by its type's schema's `default`. */
        readonly schemaDefault?: true;
        /** Where that schema writes the default (`file:line:col`), when known (a kro RGD's). */
        readonly defaultAt?: string;
      }
    | {
        readonly kind: 'reconcile';
        readonly controller: string;
        readonly seq: number;
        /** A declarative controller's write: the template line (and expressions) it came from. */
        readonly template?: TemplateOrigin;
        /** A kro RGD's output's field its template does not write: its kind's default. */
        readonly kindDefault?: true;
        /** A kro RGD's output's status: the observed status laid on it, where it is given. */
        readonly observed?: { readonly at?: ManifestPosition };
      }
    | { readonly kind: 'unknown' };
}

/** The versions of a resource the record saw, oldest first (the manifest's first, if any). */
export function historyOf(index: ExplainIndex, pointer: Pointer): VersionEntry[] {
  const out: VersionEntry[] = [];
  const writes = index.record.writesTo(pointer);
  const position = index.position(pointer);
  const firstWritten = writes[0]?.write;
  const manifest = position !== undefined || index.resource(pointer)?.metadata.owner === '';
  if (manifest && firstWritten?.op !== 'create') {
    out.push({
      version: 1,
      by: { kind: 'manifest', ...(position ? { position } : {}) },
      fields: [],
    });
  }
  // The manifests applied again over it (a watch round's edit), at the place it has now.
  for (const { version } of index.record.manifestUpdatesTo(pointer)) {
    out.push({ version, by: { kind: 'manifest', ...(position ? { position } : {}) }, fields: [] });
  }
  for (const { reconcile, write } of writes) {
    out.push({
      version: write.version,
      by: {
        kind: 'reconcile',
        controller: reconcile.controller,
        seq: reconcile.seq,
        at: reconcile.startedAt,
        op: write.op,
        triggers: reconcile.triggers.map((ref) =>
          index.source.isClusterScoped?.(ref.type) === true ? { ...ref, clusterScoped: true } : ref,
        ),
      },
      fields: write.fields.map((field) => index.documentField(pointer, field)),
    });
  }
  return out.sort((a, b) => a.version - b.version);
}

/**
 * For each leaf of the resource's spec (and labels and annotations), the write that set it last:
 * the newest recorded write that changed it (or a parent of it), else the manifest, at the line
 * of the field, else unknown (the record does not reach back that far). Each field is named as
 * the resource's document has it: a Kubernetes object's `/spec/replicas`, `/data/a`.
 */
export function blameFields(index: ExplainIndex, pointer: Pointer): FieldBlame[] {
  const resource = index.resource(pointer);
  if (!resource) return [];
  const writes = index.record.writesTo(pointer);
  const fields = [
    ...leaves(resource.spec, '/spec'),
    ...leaves(resource.metadata.labels, '/metadata/labels'),
    ...leaves(resource.metadata.annotations, '/metadata/annotations'),
  ];
  return fields.map((field): FieldBlame => {
    // Named and located as the resource's document has it; matched as the record has it.
    const shown = index.documentField(pointer, field);
    for (let i = writes.length - 1; i >= 0; i--) {
      const { reconcile, write } = writes[i] as (typeof writes)[number];
      if (write.op === 'create' || write.fields.some((f) => covers(f, field))) {
        const origin = index.source.templateOrigins?.(reconcile.controller, resource, field);
        return {
          field: shown,
          version: write.version,
          by: {
            kind: 'reconcile',
            controller: reconcile.controller,
            seq: reconcile.seq,
            ...(origin !== undefined && 'template' in origin ? { template: origin.template } : {}),
            ...(origin !== undefined && 'kindDefault' in origin ? { kindDefault: true } : {}),
            ...(origin !== undefined && 'observed' in origin
              ? { observed: observedPosition(index, pointer, field) }
              : {}),
          },
        };
      }
    }
    const position = index.position(pointer, field);
    if (position && resource.metadata.owner === '') {
      const defaulted = index
        .manifest(pointer)
        ?.defaulted?.some((f) => field === f || field.startsWith(`${f}/`));
      const at = defaulted === true ? index.source.locateDefault?.(pointer.type, shown) : undefined;
      const by =
        defaulted === true
          ? { schemaDefault: true as const, ...(at === undefined ? {} : { defaultAt: at }) }
          : {};
      return { field: shown, version: 1, by: { kind: 'manifest', position, ...by } };
    }
    return { field: shown, version: 0, by: { kind: 'unknown' } };
  });
}

/**
 * Where the observed status laid on a resource gives `field` (`/spec/status/...`): its line in
 * the observed object's manifest, when it has one (not when a test's edit made it).
 */
function observedPosition(
  index: ExplainIndex,
  pointer: Pointer,
  field: string,
): { readonly at?: ManifestPosition } {
  const observed = {
    namespace: pointer.namespace,
    type: OBSERVED_STATUS_TYPE,
    id: observedStatusId(pointer.type, pointer.id),
  };
  const at = index.position(observed, field);
  return at === undefined ? {} : { at };
}

/** Whether a change of `changed` changes `field` (the same or a parent of it). */
function covers(changed: string, field: string): boolean {
  return field === changed || field.startsWith(`${changed}/`) || changed.startsWith(`${field}/`);
}

function leaves(value: unknown, at: string): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return value === undefined ? [] : [at];
  }
  const keys = Object.keys(value).sort();
  return keys.flatMap((key) =>
    leaves(
      (value as Record<string, unknown>)[key],
      `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
    ),
  );
}
