import type { Resource } from '../../engine/resource/resource.js';

/** One condition of a resource's `status.conditions`, as `kubectl describe` lists it. */
export interface StatusCondition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
}

/** What a resource's status says of its health: a kro instance's `state`, its conditions. */
export interface ResourceStatus {
  readonly state?: string;
  readonly conditions: readonly StatusCondition[];
}

/**
 * The `status.state` and `status.conditions` of a resource (a Kubernetes object's status, which
 * cosi holds in its spec), when it has either: whether it is ready, and if not, why.
 */
export function resourceStatusOf(resource: Resource): ResourceStatus | undefined {
  const status = (resource.spec as { status?: unknown } | undefined)?.status;
  if (typeof status !== 'object' || status === null) return undefined;
  const { state, conditions } = status as { state?: unknown; conditions?: unknown };
  const listed = Array.isArray(conditions) ? conditions.flatMap(conditionOf) : [];
  if (typeof state !== 'string' && listed.length === 0) return undefined;
  return { ...(typeof state === 'string' ? { state } : {}), conditions: listed };
}

function conditionOf(value: unknown): StatusCondition[] {
  if (typeof value !== 'object' || value === null) return [];
  const { type, status, reason, message } = value as Record<string, unknown>;
  if (typeof type !== 'string') return [];
  return [
    {
      type,
      status:
        typeof status === 'string' ? status : status === undefined ? '' : JSON.stringify(status),
      ...(typeof reason === 'string' && reason !== '' ? { reason } : {}),
      ...(typeof message === 'string' && message !== '' ? { message } : {}),
    },
  ];
}
