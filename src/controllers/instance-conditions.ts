/** The conditions kro writes into an instance's status after each render. */

/**
 * The prefix of the message of an instance's `ResourcesReady` and `Ready` conditions while it
 * waits (kro's `awaiting resource readiness: ...`): what it waits on follows (offline, status
 * only another controller would write never comes: `cosi apply` reports such instances as
 * `rgd-waiting` warnings).
 */
export const AWAITING_PREFIX = 'awaiting resource readiness: ';

/**
 * An instance's conditions as kro's instance controller writes them (`pkg/controller/instance`,
 * `status.go`): `InstanceManaged` and `GraphResolved` (true once its controller renders it),
 * `ResourcesReady` (`AllResourcesReady`; else `NotReady` with the errors of a resource that
 * failed, `resource error: ...`, or what it waits on), and the root `Ready` (reason `Ready`, no
 * message; else `ResourcesReady`'s reason and message), each with `observedGeneration`. No
 * `lastTransitionTime`: an offline run has no clock time to give.
 */
export function instanceConditions(
  errors: readonly string[],
  waits: readonly string[],
  observedGeneration: number,
): Record<string, unknown>[] {
  const resources =
    errors.length > 0
      ? { status: 'False', reason: 'NotReady', message: `resource error: ${errors.join('; ')}` }
      : waits.length > 0
        ? { status: 'False', reason: 'NotReady', message: `${AWAITING_PREFIX}${waits.join('; ')}` }
        : {
            status: 'True',
            reason: 'AllResourcesReady',
            message: 'all resources are created and ready',
          };
  return [
    {
      type: 'InstanceManaged',
      status: 'True',
      reason: 'Managed',
      message: 'instance is properly managed with finalizers and labels',
      observedGeneration,
    },
    {
      type: 'GraphResolved',
      status: 'True',
      reason: 'Resolved',
      message: 'runtime graph created and all resources resolved',
      observedGeneration,
    },
    { type: 'ResourcesReady', ...resources, observedGeneration },
    resources.status === 'True'
      ? { type: 'Ready', status: 'True', reason: 'Ready', message: '', observedGeneration }
      : { type: 'Ready', ...resources, observedGeneration },
  ];
}
