/**
 * What an apply of a manifest writes over the resource the state holds, as `kubectl apply`
 * writes over a live object: the manifest's labels, annotations and spec win, but what a
 * controller added and the manifest never had is kept. So a start of `cosi run` over a state a
 * controller has worked on (a kro instance its controller labelled and gave a status) writes
 * nothing when the manifests did not change, and `cosi diff` shows no change there.
 */

import type { OwnerReference } from '../resource/metadata.js';
import { defineOwn, isRecord } from '../resource/plain-data.js';

/** The part of a resource an apply writes. */
export interface AppliedFields {
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly spec: unknown;
}

/** What else than the manifest an apply over a live resource needs to know. */
export interface ApplyOverOptions {
  /**
   * What the last apply of this resource wrote from its manifest, when known (the same process
   * applied it): a label, annotation or kept spec field it set that the manifest no longer has
   * is removed. When
   * it is not known (a new process), the live ones the manifest lacks are kept, as they may be a
   * controller's.
   */
  readonly lastApplied?: AppliedFields;
  /**
   * Top-level fields of the spec that controllers write and the manifest does not (a Kubernetes
   * kind's `status`, when the kind has the status subresource): kept from the live resource
   * unless the manifest has the field.
   */
  readonly keptSpecFields?: readonly string[];
}

/** The labels, annotations and spec that applying `manifest` over `live` stores. */
export function applyOver(
  live: AppliedFields,
  manifest: AppliedFields,
  options: ApplyOverOptions = {},
): AppliedFields {
  return {
    labels: mergeRecord(live.labels, manifest.labels, options.lastApplied?.labels),
    annotations: mergeRecord(
      live.annotations,
      manifest.annotations,
      options.lastApplied?.annotations,
    ),
    spec: mergeSpec(
      live.spec,
      manifest.spec,
      options.lastApplied?.spec,
      options.keptSpecFields ?? [],
    ),
  };
}

function mergeRecord(
  live: Readonly<Record<string, string>>,
  manifest: Readonly<Record<string, string>>,
  lastApplied: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(live)) {
    if (Object.hasOwn(manifest, key)) continue;
    // Set by the last apply and dropped from the manifest since: the apply removes it.
    if (lastApplied !== undefined && Object.hasOwn(lastApplied, key)) continue;
    defineOwn(out, key, value);
  }
  return { ...out, ...manifest };
}

function mergeSpec(
  live: unknown,
  manifest: unknown,
  lastApplied: unknown,
  kept: readonly string[],
): unknown {
  if (kept.length === 0 || !isRecord(live) || !isRecord(manifest)) return manifest;
  let out: Record<string, unknown> | undefined;
  for (const field of kept) {
    if (Object.hasOwn(manifest, field) || !Object.hasOwn(live, field)) continue;
    // Set by the last apply (an observed status in a manifest) and dropped since: removed.
    if (isRecord(lastApplied) && Object.hasOwn(lastApplied, field)) continue;
    out ??= { ...manifest };
    defineOwn(out, field, live[field]);
  }
  return out ?? manifest;
}

/** An owner reference as an apply keys it: the owner it names (kubectl's kind and name). */
export type NamedOwner = Pick<OwnerReference, 'type' | 'id'>;

/**
 * The owner references that applying a manifest naming `manifest` leaves on a resource holding
 * `live`, as `kubectl apply` leaves them (by the owner they name): the manifest's replace the
 * live ones naming the same owner; those `lastApplied` (what the last apply of this manifest
 * named, when known) named and the manifest no longer does are removed; the others (a
 * controller's) stay. `undefined` when the apply does not touch them (nothing named either time).
 */
export function applyOwnersOver(
  live: readonly OwnerReference[],
  manifest: readonly OwnerReference[],
  lastApplied: readonly NamedOwner[] | undefined,
): OwnerReference[] | undefined {
  const dropped = lastApplied ?? [];
  if (manifest.length === 0 && dropped.length === 0) return undefined;
  const named = (r: NamedOwner): string => `${r.type}/${r.id}`;
  const written = new Set([...manifest, ...dropped].map(named));
  return [...live.filter((r) => !written.has(named(r))), ...manifest].map((r) => ({ ...r }));
}
