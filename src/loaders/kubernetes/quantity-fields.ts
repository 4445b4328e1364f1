/**
 * The resource quantities of built-in kinds that no per-kind check parses: a ResourceQuota's
 * `spec.hard`, a LimitRange's bounds, a StatefulSet's claim templates' requests and limits, a
 * RuntimeClass's pod overhead, a pod's `overhead` and its `emptyDir` volumes' `sizeLimit`. The
 * API server decodes each with `resource.ParseQuantity` before it validates anything, so `10gi`
 * or `4 cores` fails the request (`quantities must match the regular expression ...`). (A
 * container's resources, a claim's storage and a volume's capacity are parsed where they are
 * checked: `container-checks.ts`, `persistent-volume-claims.ts`, `persistent-volumes.ts`.)
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { podSpecPath } from './pod-spec-paths.js';
import { parseResourceQuantity, quantityError } from './resource-quantity.js';

/** A LimitRange item's quantity maps. */
const LIMIT_BOUNDS = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const;

/** The problems of quantities that do not parse in a built-in document of `group`/`kind`. */
export function quantityFieldProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const check = (value: unknown, path: (string | number)[]): void => {
    if (typeof value !== 'string' && typeof value !== 'number') return;
    const text = String(value);
    try {
      parseResourceQuantity(text);
    } catch {
      problems.push({
        path: jsonPointer(path),
        part: 'value',
        keyword: 'quantity',
        message: quantityError(text),
      });
    }
  };
  const checkMap = (path: (string | number)[]): void => {
    const values = valueAtPath(document, path);
    if (!isPlainObject(values)) return;
    for (const [name, value] of Object.entries(values)) check(value, [...path, name]);
  };
  const eachItem = (path: string[], visit: (at: (string | number)[]) => void): void => {
    const list = valueAtPath(document, path);
    if (Array.isArray(list)) list.forEach((_, i) => visit([...path, i]));
  };
  const key = `${group}/${kind}`;
  if (key === '/ResourceQuota') checkMap(['spec', 'hard']);
  if (key === '/LimitRange') {
    eachItem(['spec', 'limits'], (at) => LIMIT_BOUNDS.forEach((bound) => checkMap([...at, bound])));
  }
  if (key === 'apps/StatefulSet') {
    eachItem(['spec', 'volumeClaimTemplates'], (at) => {
      checkMap([...at, 'spec', 'resources', 'requests']);
      checkMap([...at, 'spec', 'resources', 'limits']);
    });
  }
  if (key === 'node.k8s.io/RuntimeClass') checkMap(['overhead', 'podFixed']);
  const specAt = podSpecPath(group, kind);
  if (specAt !== undefined) {
    checkMap([...specAt, 'overhead']);
    eachItem([...specAt, 'volumes'], (at) => {
      const emptyDir = valueAtPath(document, [...at, 'emptyDir']);
      if (isPlainObject(emptyDir)) check(emptyDir.sizeLimit, [...at, 'emptyDir', 'sizeLimit']);
    });
  }
  return problems;
}

/** The value at `path` in `value`, through objects and lists; undefined where one is missing. */
function valueAtPath(value: unknown, path: readonly (string | number)[]): unknown {
  let found = value;
  for (const key of path) {
    if (Array.isArray(found) && typeof key === 'number') found = found[key];
    else found = isPlainObject(found) ? found[key] : undefined;
  }
  return found;
}
