import { pointerKey, type Pointer } from '../../engine/resource/pointer.js';
import type { Resource } from '../../engine/resource/resource.js';
import { ExplainIndex, type ExplainSource } from './explain-source.js';
import { blameFields, historyOf, type FieldBlame, type VersionEntry } from './history.js';
import { renderedBy, type RenderedBy } from './rendered-by.js';
import { reconcileFailures, type ReconcileFailure } from './reconcile-failures.js';
import { resourceStatusOf, type ResourceStatus } from './resource-status.js';
import { traceBack, traceForward, type LineageNode } from './lineage.js';
import { DEFAULT_LINEAGE_DEPTH } from './lineage-depth.js';
import { whyNot, type WhyNotWriter } from './why-not.js';
import { writeCycle, type CycleStep } from './write-cycle.js';

export interface ExplainOptions {
  /** Hops of the lineage tree (default: {@link DEFAULT_LINEAGE_DEPTH}). */
  readonly depth?: number;
  /** Also what the resource feeds. */
  readonly reverse?: boolean;
  /**
   * Only this field (and the fields below it) in {@link Explanation.fields}: a JSON pointer
   * (`/spec/data/size`) or a dotted path, from the resource (`metadata.labels.app`) or from its
   * spec (`data.size`).
   */
  readonly field?: string;
}

/** Why a resource is as it is (or, when missing, why it is not there), from a run's record. */
export interface Explanation {
  readonly pointer: Pointer;
  /** Its kind is cluster-scoped: kept in namespace `default`, it is in none. */
  readonly clusterScoped?: true;
  /** The resource at the end of the run; absent when it does not exist. */
  readonly resource?: Resource;
  /** Its type is declared `sensitivity: sensitive`: the resource's spec is never printed. */
  readonly sensitive?: true;
  /** A kro RGD's output: the RGD and its resource (id, template line) that rendered it. */
  readonly renderedBy?: RenderedBy;
  /** Its `status.state` and `status.conditions`, when it has them: is it ready, and if not, why. */
  readonly status?: ResourceStatus;
  /** Each controller whose reconciles of it (as their item) failed, with the last error. */
  readonly failures: readonly ReconcileFailure[];
  /** Where its last version came from, back to the manifests; absent if never seen. */
  readonly lineage?: LineageNode;
  /** With `reverse`: what it feeds. */
  readonly feeds?: LineageNode;
  /** Its versions, oldest first. */
  readonly history: readonly VersionEntry[];
  /** For each field, the write that set it last. */
  readonly fields: readonly FieldBlame[];
  /** When the run did not converge and this resource kept changing: the cycle of writes. */
  readonly cycle: readonly CycleStep[];
  /** When it does not exist: each controller that could write it, and what stopped it. */
  readonly whyNot?: readonly WhyNotWriter[];
  /** The record dropped its oldest reconciles: an explanation may stop short. */
  readonly truncated: boolean;
}

/**
 * Explains one resource from the record of a run.
 *
 * @example
 * const outcome = (await runProject({ ...options, record: true })).outcome;
 * explainResource(explainSourceOf(outcome), NetworkConfig.pointer('web-1'));
 */
export function explainResource(
  source: ExplainSource,
  pointer: Pointer,
  options: ExplainOptions = {},
): Explanation {
  const index = new ExplainIndex(source);
  const depth = options.depth ?? DEFAULT_LINEAGE_DEPTH;
  const resource = index.resource(pointer);
  const history = historyOf(index, pointer);
  const lastVersion = resource?.metadata.version ?? history.at(-1)?.version;
  const status = resource ? resourceStatusOf(resource) : undefined;
  const rendered = resource ? renderedBy(index, resource, history) : undefined;
  const oscillating =
    source.report?.converged === false &&
    source.report.oscillating.some((o) => pointerKey(o.pointer) === pointerKey(pointer));
  return {
    pointer,
    ...(source.isClusterScoped?.(pointer.type) === true ? { clusterScoped: true } : {}),
    ...(resource ? { resource } : {}),
    ...(source.isSensitive?.(pointer.type) === true ? { sensitive: true } : {}),
    ...(rendered ? { renderedBy: rendered } : {}),
    ...(status ? { status } : {}),
    failures: reconcileFailures(index, pointer),
    ...(lastVersion !== undefined && lastVersion > 0
      ? { lineage: traceBack(index, { ...pointerOnly(pointer), version: lastVersion }, depth) }
      : {}),
    ...(options.reverse === true ? { feeds: traceForward(index, pointer, depth) } : {}),
    history,
    fields:
      options.field === undefined
        ? blameFields(index, pointer)
        : selectFields(blameFields(index, pointer), options.field),
    cycle: oscillating ? writeCycle(index, pointer) : [],
    ...(resource ? {} : { whyNot: whyNot(index, pointer) }),
    truncated: source.record.truncated,
  };
}

function pointerOnly(p: Pointer): Pointer {
  return { namespace: p.namespace, type: p.type, id: p.id };
}

/**
 * The fields at `path` or below it: a JSON pointer, or a dotted path from the resource or, when
 * that names nothing, from its spec.
 */
export function selectFields(fields: readonly FieldBlame[], path: string): FieldBlame[] {
  const candidates = path.startsWith('/')
    ? [path]
    : [`/${path.split('.').join('/')}`, `/spec/${path.split('.').join('/')}`];
  for (const candidate of candidates) {
    const selected = fields.filter(
      (f) => f.field === candidate || f.field.startsWith(`${candidate}/`),
    );
    if (selected.length > 0) return selected;
  }
  return [];
}
