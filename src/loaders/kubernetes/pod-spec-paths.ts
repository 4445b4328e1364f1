/**
 * Where a built-in kind keeps its pod spec: a Pod's `spec`, a workload's pod template
 * (`spec.template.spec`), a CronJob's job template's. The Go validation of pods runs there.
 */

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
