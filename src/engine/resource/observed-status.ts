/**
 * Observed status: what a cluster's own controllers would report of a resource that a kro RGD
 * renders here (a Deployment's `availableReplicas`), which no controller offline writes. A
 * Kubernetes manifest annotated `cosi.dev/observed: "true"` gives it, as `crossplane render`'s
 * observed resources do: it is not the resource itself but a resource of its own type,
 * {@link OBSERVED_STATUS_TYPE}, whose id names the resource it observes, and whose `status` is
 * laid on that resource when the RGD writes it.
 *
 * ```yaml
 * apiVersion: apps/v1
 * kind: Deployment
 * metadata:
 *   name: blog
 *   annotations: { cosi.dev/observed: "true" }
 * status:
 *   availableReplicas: 1
 * ```
 */

import { createDefinition, type ResourceDefinition } from './definition.js';

/** The annotation that makes a Kubernetes manifest an observed status. */
export const OBSERVED_ANNOTATION = 'cosi.dev/observed';

/** The type of observed statuses. */
export const OBSERVED_STATUS_TYPE = 'ObservedStatuses.cosi.dev';

/** The spec of an observed status. */
export interface ObservedStatusSpec {
  /** The observed resource's `apiVersion` and `kind`, as its manifest writes them. */
  readonly apiVersion: string;
  readonly kind: string;
  /** The observed resource's cosi type (`Deployments.apps`) and name. */
  readonly type: string;
  readonly name: string;
  readonly status: Readonly<Record<string, unknown>>;
}

/** The definition of observed statuses (`cosi get observed`). */
export const observedStatusDefinition: ResourceDefinition = createDefinition({
  type: OBSERVED_STATUS_TYPE,
  aliases: ['observed'],
  printColumns: [
    { name: 'Kind', jsonPath: '{.kind}' },
    { name: 'Name', jsonPath: '{.name}' },
  ],
  schema: {
    type: 'object',
    required: ['apiVersion', 'kind', 'type', 'name', 'status'],
    additionalProperties: false,
    properties: {
      apiVersion: { type: 'string', minLength: 1 },
      kind: { type: 'string', minLength: 1 },
      type: { type: 'string', minLength: 1 },
      name: { type: 'string', minLength: 1 },
      status: { type: 'object' },
    },
  },
});

/** The id of the observed status of resource `name` of `type`: `Deployments.apps:blog`. */
export function observedStatusId(type: string, name: string): string {
  return `${type}:${name}`;
}

/** The type and name an observed status's id names; `undefined` for an id of no such form. */
export function observedTarget(id: string): { type: string; name: string } | undefined {
  const colon = id.indexOf(':');
  if (colon <= 0 || colon === id.length - 1) return undefined;
  return { type: id.slice(0, colon), name: id.slice(colon + 1) };
}
