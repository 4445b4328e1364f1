/**
 * The cells of the built-in kinds' print columns that a JSONPath cannot write as kubectl's table
 * does (its printers, `pkg/printers/internalversion/printers.go`): a Service's ports as
 * `port/protocol` (`port:nodePort/protocol` with a node port), joined with `,`, `<none>` without
 * any; a workload's images joined with `,`, not a JSONPath's space; an Ingress's class `<none>`
 * without one; a ConfigMap's count of keys; a CronJob's `True`/`False`; a PodDisruptionBudget's
 * `N/A`; a NetworkPolicy's pod selector as a selector string; a binding's `Kind/name` role. Each reads the object as the
 * API server stores it (`withStoredDefaults`), so a port without a protocol is `80/TCP`.
 */

import { isPlainObject } from '../manifest-document.js';

/** A cell made from a resource's spec (its document's top-level fields but the envelope). */
export type PrintCell = (spec: unknown) => string;

/** The objects of a list, skipping what is not one. */
function objects(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

/** The value at `path` below `value`, undefined where an object is missing on the way. */
function at(value: unknown, ...path: string[]): unknown {
  let found = value;
  for (const key of path) found = isPlainObject(found) ? found[key] : undefined;
  return found;
}

/** A number's or a string's text; nothing for anything else. */
function scalar(value: unknown): string {
  return typeof value === 'number' || typeof value === 'string' ? String(value) : '';
}

/** kubectl's `makePortString`: `80/TCP,53/UDP`, `80:30080/TCP`; `<none>` for no ports. */
const servicePorts: PrintCell = (spec) => {
  const ports = objects(at(spec, 'spec', 'ports')).map((port) => {
    const nodePort =
      typeof port.nodePort === 'number' && port.nodePort > 0 ? `:${port.nodePort}` : '';
    return `${scalar(port.port)}${nodePort}/${scalar(port.protocol)}`;
  });
  return ports.length === 0 ? '<none>' : ports.join(',');
};

/** The images of a pod template's containers, joined with `,` as kubectl's IMAGES column. */
const templateImages: PrintCell = (spec) =>
  objects(at(spec, 'spec', 'template', 'spec', 'containers'))
    .map((container) => (typeof container.image === 'string' ? container.image : ''))
    .join(',');

/** kubectl's CLASS of an Ingress: `<none>` without an `ingressClassName`. */
const ingressClass: PrintCell = (spec) => {
  const name = at(spec, 'spec', 'ingressClassName');
  return typeof name === 'string' ? name : '<none>';
};

/** kubectl's DATA of a ConfigMap: how many keys it holds, text and binary. */
const configMapData: PrintCell = (spec) => {
  const count = (value: unknown): number => (isPlainObject(value) ? Object.keys(value).length : 0);
  return String(count(at(spec, 'data')) + count(at(spec, 'binaryData')));
};

/** kubectl's `printBoolPtr`: `True`, `False`, `<unset>`. */
function boolCell(...path: string[]): PrintCell {
  return (spec) => {
    const value = at(spec, ...path);
    return typeof value === 'boolean' ? (value ? 'True' : 'False') : '<unset>';
  };
}

/** A string or number field, or `fallback` without one (`<none>`, a PDB's `N/A`). */
function valueCell(fallback: string, ...path: string[]): PrintCell {
  return (spec) => {
    const value = at(spec, ...path);
    return typeof value === 'string' || typeof value === 'number' ? String(value) : fallback;
  };
}

/** A binding's role as kubectl prints it: `ClusterRole/view`. */
const bindingRole: PrintCell = (spec) =>
  `${scalar(at(spec, 'roleRef', 'kind'))}/${scalar(at(spec, 'roleRef', 'name'))}`;

/**
 * A label selector as kubectl's `FormatLabelSelector` writes it: its requirements by key,
 * `app=web`, `tier in (a,b)`, `tier notin (a)`, `tier`, `!tier`, joined with `,`; `<none>` when
 * it selects everything.
 */
const podSelector: PrintCell = (spec) => {
  const selector = at(spec, 'spec', 'podSelector');
  if (!isPlainObject(selector)) return '<none>';
  const requirements: [string, string][] = [];
  const labels = selector.matchLabels;
  if (isPlainObject(labels)) {
    for (const [key, value] of Object.entries(labels)) {
      requirements.push([key, `${key}=${scalar(value)}`]);
    }
  }
  for (const expression of objects(selector.matchExpressions)) {
    const key = scalar(expression.key);
    const values = Array.isArray(expression.values)
      ? expression.values.map(scalar).sort().join(',')
      : '';
    const text =
      expression.operator === 'In'
        ? `${key} in (${values})`
        : expression.operator === 'NotIn'
          ? `${key} notin (${values})`
          : expression.operator === 'DoesNotExist'
            ? `!${key}`
            : key;
    requirements.push([key, text]);
  }
  if (requirements.length === 0) return '<none>';
  return requirements
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, text]) => text)
    .join(',');
};

/** `group/Kind/Column` -> its cell. */
const CELLS: Readonly<Record<string, PrintCell>> = {
  '/Service/Ports': servicePorts,
  'apps/Deployment/Images': templateImages,
  'apps/StatefulSet/Images': templateImages,
  'apps/ReplicaSet/Images': templateImages,
  'apps/DaemonSet/Images': templateImages,
  'networking.k8s.io/Ingress/Class': ingressClass,
  '/ConfigMap/Data': configMapData,
  'batch/CronJob/Timezone': valueCell('<none>', 'spec', 'timeZone'),
  'batch/CronJob/Suspend': boolCell('spec', 'suspend'),
  'policy/PodDisruptionBudget/Min Available': valueCell('N/A', 'spec', 'minAvailable'),
  'policy/PodDisruptionBudget/Max Unavailable': valueCell('N/A', 'spec', 'maxUnavailable'),
  'networking.k8s.io/NetworkPolicy/Pod-Selector': podSelector,
  'rbac.authorization.k8s.io/RoleBinding/Role': bindingRole,
  'rbac.authorization.k8s.io/ClusterRoleBinding/Role': bindingRole,
};

/** The cell of a built-in kind's column that kubectl writes its own way, if it is one. */
export function builtinPrintCell(
  group: string,
  kind: string,
  column: string,
): PrintCell | undefined {
  const key = `${group}/${kind}/${column}`;
  return Object.hasOwn(CELLS, key) ? CELLS[key] : undefined;
}
