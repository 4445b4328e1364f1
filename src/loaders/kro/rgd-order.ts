/**
 * The order the RGDs of a load are compiled in: an RGD whose resources are instances of another
 * RGD's kind (a nested RGD) after that one, as kro builds it only once the other's CRD, with
 * its inferred status, is there: its `${child.status.x}` is typed by the child's status schema,
 * which the child's compilation writes. Otherwise (and around a cycle) in the order given.
 */

import type { ResourceDefinition } from '../../engine/resource/definition.js';
import { isPlainObject } from '../manifest-document.js';

/** What the ordering needs of an RGD: its kind and its document. */
export interface OrderedRgd {
  readonly definition: ResourceDefinition;
  readonly value: Record<string, unknown>;
}

/** `apiVersion/kind` of the RGD's instances. */
function kindKey(definition: ResourceDefinition): string | undefined {
  const kubernetes = definition.kubernetes;
  return kubernetes === undefined ? undefined : `${kubernetes.apiVersion}/${kubernetes.kind}`;
}

/** `apiVersion/kind` of each template and externalRef of the RGD's resources. */
function kindsUsed(value: Record<string, unknown>): string[] {
  const spec = isPlainObject(value.spec) ? value.spec : {};
  const resources = Array.isArray(spec.resources) ? spec.resources : [];
  const used: string[] = [];
  for (const resource of resources) {
    if (!isPlainObject(resource)) continue;
    for (const template of [resource.template, resource.externalRef]) {
      if (!isPlainObject(template)) continue;
      const { apiVersion, kind } = template;
      if (typeof apiVersion === 'string' && typeof kind === 'string') {
        used.push(`${apiVersion}/${kind}`);
      }
    }
  }
  return used;
}

/** The RGDs, each after the RGDs whose kinds its resources use. */
export function compileOrder<T extends OrderedRgd>(rgds: readonly T[]): T[] {
  const byKind = new Map<string, T>();
  for (const rgd of rgds) {
    const key = kindKey(rgd.definition);
    if (key !== undefined && !byKind.has(key)) byKind.set(key, rgd);
  }
  const order: T[] = [];
  const placed = new Set<T>();
  const visiting = new Set<T>();
  const visit = (rgd: T): void => {
    if (placed.has(rgd) || visiting.has(rgd)) return;
    visiting.add(rgd);
    for (const key of kindsUsed(rgd.value)) {
      const used = byKind.get(key);
      if (used !== undefined && used !== rgd) visit(used);
    }
    visiting.delete(rgd);
    placed.add(rgd);
    order.push(rgd);
  };
  for (const rgd of rgds) visit(rgd);
  return order;
}
