/**
 * Where a built-in kind keeps its pod spec: a Pod's `spec`, a workload's pod template
 * (`spec.template.spec`), a CronJob's job template's. The Go validation of pods runs there.
 */
import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';

const TEMPLATE = ['spec', 'template', 'spec'];

const POD_SPECS: Readonly<Record<string, readonly string[]>> = {
  '/Pod': ['spec'],
  '/PodTemplate': ['template', 'spec'],
  '/ReplicationController': TEMPLATE,
  'apps/Deployment': TEMPLATE,
  'apps/ReplicaSet': TEMPLATE,
  'apps/StatefulSet': TEMPLATE,
  'apps/DaemonSet': TEMPLATE,
  'batch/Job': TEMPLATE,
  'batch/CronJob': ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};

/** The path of the pod spec of a built-in `group`/`kind`, if it has one. */
export function podSpecPath(group: string, kind: string): readonly string[] | undefined {
  return POD_SPECS[`${group}/${kind}`];
}

/** Where the metadata of the pod is beside its spec at `specAt`: a Pod's own, a template's. */
export function podMetadataPath(specAt: readonly string[]): string[] {
  return [...specAt.slice(0, -1), 'metadata'];
}

/** The value at `path` in `value`, undefined where an object is missing on the way. */
export function valueAtPath(value: unknown, path: readonly (string | number)[]): unknown {
  let found = value;
  for (const key of path) found = isPlainObject(found) ? found[key as string] : undefined;
  return found;
}

/** The container lists of a pod spec, in the order the API server validates them. */
export const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** A document's pod spec, and the problems found below it with the way to add one. */
export interface PodSpecProblems {
  readonly spec: Record<string, unknown>;
  readonly problems: SchemaProblem[];
  /** Adds a problem at `path` below the pod spec. */
  readonly add: (path: (string | number)[], keyword: string, message: string) => void;
}

/** The pod spec of a built-in document of `group`/`kind`, if it has one and it is an object. */
export function podSpecOf(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): PodSpecProblems | undefined {
  const at = podSpecPath(group, kind);
  if (at === undefined) return undefined;
  const spec = valueAtPath(document, at);
  if (!isPlainObject(spec)) return undefined;
  const problems: SchemaProblem[] = [];
  const add = (path: (string | number)[], keyword: string, message: string): void => {
    problems.push({ path: jsonPointer([...at, ...path]), part: 'value', keyword, message });
  };
  return { spec, problems, add };
}
