/**
 * The `observed-unused` warnings of a run: an observed status (`cosi.dev/observed`) is laid on
 * the resource it names when a kro RGD renders it; one that names nothing an RGD rendered (a
 * misspelt name, a namespace the RGD does not write to, a resource that is a manifest) changes
 * nothing, and would let a check pass that the author meant to feed. Said at its manifest.
 */

import { kindKey, pointerKey } from '../engine/resource/pointer.js';
import type { Resource } from '../engine/resource/resource.js';
import {
  OBSERVED_ANNOTATION,
  OBSERVED_STATUS_TYPE,
  observedTarget,
  type ObservedStatusSpec,
} from '../engine/resource/observed-status.js';
import { findInSnapshot, typeRange, type StateSnapshot } from '../engine/state/state-snapshot.js';
import { GRAPH_LABEL } from '../controllers/kro-labels.js';
import { RESOURCE_GRAPH_PREFIX } from '../controllers/resource-graph.js';
import { didYouMean } from '../loaders/did-you-mean.js';
import { createFinding, type Finding } from '../loaders/finding.js';
import type { ManifestSource } from '../loaders/manifest-resource.js';
import { waitingMessage } from './waiting-instances.js';

/** A warning for each observed status that no RGD's output took, at its manifest. */
export function unusedObservationFindings(
  snapshot: StateSnapshot,
  sources: Pick<ReadonlyMap<string, ManifestSource>, 'get'>,
): Finding[] {
  // Found by type, and what each names by pointer: a watch round reads them every round.
  const { start, end } = typeRange(snapshot.resources, OBSERVED_STATUS_TYPE);
  const observations = snapshot.resources.slice(start, end);
  let rendered: RenderedNames | undefined;
  /**
   * ` (did you mean "blog"?)`, among the names an RGD rendered of that type and namespace; else
   * the same name, or a near one, in another namespace.
   */
  const guess = (namespace: string, type: string, name: string): string => {
    rendered ??= renderedNames(snapshot);
    const nearest = didYouMean(name, rendered.byKind.get(kindKey({ namespace, type })) ?? []);
    if (nearest !== undefined) return ` (did you mean ${JSON.stringify(nearest)}?)`;
    const elsewhere = rendered.byType.get(type) ?? [];
    const same = elsewhere.find((other) => other.id === name);
    if (same !== undefined)
      return ` (it rendered one in ${same.namespace}: did you mean metadata.namespace: ${same.namespace}?)`;
    const near = didYouMean(
      `${namespace}/${name}`,
      elsewhere.map((other) => `${other.namespace}/${other.id}`),
    );
    return near === undefined ? '' : ` (did you mean ${JSON.stringify(near)}?)`;
  };
  let external: Set<string> | undefined;
  const findings: Finding[] = [];
  for (const observation of observations) {
    const { namespace, id } = observation.metadata;
    const target = observedTarget(id);
    if (target === undefined) continue;
    const found = findInSnapshot(snapshot.resources, {
      namespace,
      type: target.type,
      id: target.name,
    });
    if (found !== undefined && isRendered(found)) continue;
    const { kind } = observation.spec as ObservedStatusSpec;
    const named = `${kind} ${namespace}/${target.name}`;
    const source = sources.get(pointerKey(observation.metadata));
    external ??= missingExternalRefs(snapshot);
    const read =
      external.has(`${kind} ${target.name}`) || external.has(`${kind} ${namespace}/${target.name}`);
    findings.push(
      createFinding({
        code: 'observed-unused',
        message:
          found === undefined && read
            ? `the observed status of ${named} is laid on nothing: an RGD's externalRef reads that ${kind}, which no RGD renders; give it as a manifest, its status included (without ${OBSERVED_ANNOTATION})`
            : found === undefined
              ? `the observed status of ${named} is laid on nothing: no RGD rendered a ${kind} of that name in ${namespace}${guess(namespace, target.type, target.name)}`
              : `the observed status of ${named} is laid on nothing: that ${kind} is ${whatItIs(found)}, and observed status is laid only on what an RGD renders`,
        file: source?.file ?? '',
        line: source?.line ?? 0,
        col: source?.col ?? 0,
        pointer: '',
      }),
    );
  }
  return findings;
}

/** What a resource an observed status names is, when it is no RGD's output. */
function whatItIs(resource: Resource): string {
  const { owner, labels } = resource.metadata;
  const graph = labels[GRAPH_LABEL];
  if (owner === '' && graph !== undefined) {
    return `an instance RGD ${graph} writes (its status is its own RGD's to write)`;
  }
  return owner === '' ? 'a manifest (write its status in it)' : `written by ${owner}`;
}

/** Whether a resource is an RGD's output, which an observed status is laid on. */
function isRendered(resource: Resource): boolean {
  return resource.metadata.owner.startsWith(RESOURCE_GRAPH_PREFIX);
}

/** What RGDs rendered: ids by kind (`namespace/type`), and namespaced ids by type. */
interface RenderedNames {
  readonly byKind: Map<string, string[]>;
  readonly byType: Map<string, { readonly namespace: string; readonly id: string }[]>;
}

function renderedNames(snapshot: StateSnapshot): RenderedNames {
  const byKind = new Map<string, string[]>();
  const byType = new Map<string, { readonly namespace: string; readonly id: string }[]>();
  for (const { metadata } of snapshot.resources) {
    if (!metadata.owner.startsWith(RESOURCE_GRAPH_PREFIX)) continue;
    const key = kindKey(metadata);
    const ids = byKind.get(key);
    if (ids === undefined) byKind.set(key, [metadata.id]);
    else ids.push(metadata.id);
    const named = { namespace: metadata.namespace, id: metadata.id };
    const all = byType.get(metadata.type);
    if (all === undefined) byType.set(metadata.type, [named]);
    else all.push(named);
  }
  return { byKind, byType };
}

/**
 * What the instances that wait read by an externalRef and do not find (`Deployment db`,
 * `Deployment prod/db`), as their `Ready` condition says it: a resource an RGD reads is given as
 * a manifest, not as an observed status.
 */
function missingExternalRefs(snapshot: StateSnapshot): Set<string> {
  const missing = new Set<string>();
  for (const resource of snapshot.resources) {
    const waiting = waitingMessage((resource.spec as { status?: unknown } | null)?.status);
    if (waiting === undefined) continue;
    for (const match of waiting.matchAll(/externalRef \S+ \(([^)]*)\) does not exist/g)) {
      if (match[1] !== undefined) missing.add(match[1]);
    }
  }
  return missing;
}
