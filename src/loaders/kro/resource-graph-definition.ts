/**
 * kro `ResourceGraphDefinition`s (`kro.run/v1alpha1`): each is a type and a controller.
 *
 * - `spec.schema` is the type (`rgd-instance-type.ts`): instances load, default and validate as
 *   any CRD kind's; its status is typed once the graph compiles (`instance-status.ts`).
 * - `spec.resources` is the controller (`controllers/resource-graph.ts`): the graph compiled here
 *   once every kind of the load is known, in steps that share one record of what the compile
 *   builds up (`graph-compilation.ts`): each resource's template and its `${...}` expressions
 *   (`compile-resource.ts`, `compile-expressions.ts`, `for-each-iterators.ts`,
 *   `standalone-expressions.ts`), the instance status (`instance-status.ts`), the types of the
 *   expressions (`graph-type-checks.ts`), then the order the references between resources by
 *   `id` give (`creation-order.ts`).
 *
 * A cycle, a reference to an unknown id, an expression that does not parse, a field the schema
 * of what an expression reads does not have, a value whose type does not fit where it goes, a
 * template of an unknown kind are refused when the RGD loads, at the expression's
 * `file:line:col` (`rgd-*` findings).
 */

import type { ResourceDefinition } from '../../engine/resource/definition.js';
import type { ResourceGraph } from '../../controllers/compiled-resource-graph.js';
import type { SchemaCompiler } from '../schema-compiler.js';
import type { KubernetesKinds } from '../kubernetes/kubernetes-kinds.js';
import { locator } from '../template-locator.js';
import { compileResource } from './compile-resource.js';
import { creationOrder } from './creation-order.js';
import { startCompilation } from './graph-compilation.js';
import { checkExpressionTypes } from './graph-type-checks.js';
import { compileInstanceStatus, typeInstanceStatus } from './instance-status.js';
import type { ReadRgd, RgdReadOptions } from './rgd-instance-type.js';

export const RGD_API_VERSION = 'kro.run/v1alpha1';
export const RGD_KIND = 'ResourceGraphDefinition';

/** Whether a Kubernetes-shaped document is an RGD. */
export function isRgdDocument(value: Record<string, unknown>): boolean {
  return value.apiVersion === RGD_API_VERSION && value.kind === RGD_KIND;
}

const graphs = new WeakMap<ResourceDefinition, ResourceGraph>();

/** The compiled graph of an RGD's kind, when the definition is one. */
export function resourceGraphOf(definition: ResourceDefinition): ResourceGraph | undefined {
  return graphs.get(definition);
}

/**
 * Compiles an RGD's resources into its graph (remembered for {@link resourceGraphOf}), reporting
 * every refused resource and expression; false when something was refused.
 */
export function compileResourceGraph(
  rgd: ReadRgd,
  kinds: KubernetesKinds,
  compiler: SchemaCompiler,
  options: RgdReadOptions,
): boolean {
  const { report, value, definition } = rgd;
  const spec = value.spec as Record<string, unknown>;
  const resources = spec.resources ?? [];
  if (!Array.isArray(resources)) {
    report.add('rgd-bad-resource', '/spec/resources', 'spec.resources must be a list');
    return false;
  }
  const compilation = startCompilation(report, definition, resources, kinds, compiler, options);
  resources.forEach((resource, i) => compileResource(compilation, resource, i));
  const { status, conditions } = compileInstanceStatus(compilation, spec);
  checkExpressionTypes(compilation);
  const nodes = creationOrder(compilation);
  if (compilation.failed) return false;
  typeInstanceStatus(compilation, status);
  graphs.set(definition, {
    name: rgd.name,
    instanceType: definition.type,
    ...(definition.kubernetes === undefined
      ? {}
      : {
          instanceKind: {
            apiVersion: definition.kubernetes.apiVersion,
            kind: definition.kubernetes.kind,
            namespaced: definition.kubernetes.namespaced,
          },
        }),
    nodes,
    status,
    ...(conditions.length === 0 ? {} : { conditions }),
    locateStatus: locator(report, ['spec', 'schema', 'status']),
    locateSchema: locator(report, ['spec', 'schema', 'spec']),
    source: value,
  });
  return true;
}
