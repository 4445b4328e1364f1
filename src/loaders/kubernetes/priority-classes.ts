/**
 * What the API server checks of a PriorityClass in Go (k8s.io/kubernetes
 * `pkg/apis/scheduling/validation` `ValidatePriorityClass`): a name starting with `system-` is
 * one of the two system classes, with its value and without `globalDefault`; any other class's
 * value is at most 1,000,000,000 (the values above are the system's). Each problem at its
 * field, in the API server's words.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { forbiddenValue } from './go-field-error.js';

const SYSTEM_PREFIX = 'system-';
const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
/** The system's own classes and their values (`SystemPriorityClasses`). */
const SYSTEM_CLASSES: ReadonlyMap<string, number> = new Map([
  ['system-node-critical', 2_000_001_000],
  ['system-cluster-critical', 2_000_000_000],
]);

/** The problems of a built-in document of `group`/`kind` (a PriorityClass's only). */
export function priorityClassProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== 'scheduling.k8s.io' || kind !== 'PriorityClass') return [];
  const metadata = isPlainObject(document.metadata) ? document.metadata : {};
  const name = metadata.name;
  const { value, globalDefault } = document;
  const problems: SchemaProblem[] = [];
  const add = (path: string[], message: string): void => {
    problems.push({ path: jsonPointer(path), part: 'value', keyword: 'priority-class', message });
  };
  if (typeof name === 'string' && name.startsWith(SYSTEM_PREFIX)) {
    const why = systemClassError(name, value, globalDefault === true);
    if (why !== undefined) {
      add(
        ['metadata', 'name'],
        forbiddenValue(
          `priority class names with '${SYSTEM_PREFIX}' prefix are reserved for system use only. error: ${why}`,
        ),
      );
    }
  } else if (typeof value === 'number' && value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    add(
      ['value'],
      forbiddenValue(
        `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`,
      ),
    );
  }
  return problems;
}

/** `IsKnownSystemPriorityClass`: why a `system-` class is not one, or undefined. */
function systemClassError(
  name: string,
  value: unknown,
  globalDefault: boolean,
): string | undefined {
  const known = SYSTEM_CLASSES.get(name);
  if (known === undefined) return `${name} is not a known system priority class`;
  if (value !== known) return `value of ${name} PriorityClass must be ${known}`;
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}
