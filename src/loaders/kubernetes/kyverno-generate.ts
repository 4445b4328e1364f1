/**
 * A Kyverno rule's `generate`, as Kyverno checks it when the policy is written
 * (`Generation.Validate` and `GeneratePattern.Validate` of its `api/kyverno/v1`), in its words:
 *
 * - one way to generate: `data`, `clone`, `cloneList` or `foreach` (each of whose items is
 *   checked as a `generate` of its own);
 * - what it generates has an `apiVersion`, a `kind` and a `name` (but with `cloneList`);
 * - the target's namespace follows its kind's scope: set for a namespaced kind, not for a
 *   cluster-scoped one (as far as the load's definitions and the built-in kinds tell);
 * - a `cloneList` clones kinds of one scope, from a namespace when they are namespaced;
 * - a namespaced policy (`Policy`) generates namespaced resources in its own namespace, and
 *   clones from there.
 *
 * A namespace Kyverno compares with the policy's: one that holds a variable, or none, never is
 * the policy's; a name is compared only when the policy's manifest names its namespace.
 */

import { isPlainObject, stringOrEmpty as text } from '../manifest-document.js';
import { forbiddenValue } from './go-field-error.js';
import type { AddProblem, ClusterScope, Path } from './kyverno-match.js';

/** The policy a `generate` is checked in. */
export interface GeneratingPolicy {
  /** A `Policy`, which generates in its own namespace. */
  readonly namespaced: boolean;
  /** Its `metadata.namespace`, when the manifest names one. */
  readonly namespace: string | undefined;
  readonly isClusterScoped: ClusterScope;
}

/** Reports the problems of a rule's `generate` (see above). */
export function generateProblems(
  generate: Record<string, unknown>,
  at: Path,
  policy: GeneratingPolicy,
  add: AddProblem,
): void {
  const ways = [
    generate.data != null,
    isPlainObject(generate.clone) &&
      Object.values(generate.clone).some((v) => v != null && v !== ''),
    isPlainObject(generate.cloneList) && Array.isArray(generate.cloneList.kinds),
    Array.isArray(generate.foreach),
  ];
  if (ways.filter(Boolean).length > 1) {
    add(
      at,
      forbiddenValue(
        'only one of generate patterns(data, clone, cloneList and foreach) can be specified',
      ),
      'key',
    );
    return;
  }
  if (Array.isArray(generate.foreach)) {
    generate.foreach.forEach((item: unknown, i) => {
      if (isPlainObject(item)) patternProblems(item, [...at, 'foreach', i], policy, add);
    });
  } else {
    patternProblems(generate, at, policy, add);
  }
}

/** A namespace as a message shows it: `(none)` for none. */
function shown(namespace: string): string {
  return namespace === '' ? '(none)' : namespace;
}

/**
 * Whether a namespace is surely not a namespaced policy's: none, one that holds a variable, or
 * another name than the one its manifest gives.
 */
export function otherNamespace(
  namespace: string,
  policy: Pick<GeneratingPolicy, 'namespace'>,
): boolean {
  if (namespace === '' || namespace.includes('{{')) return true;
  return policy.namespace !== undefined && namespace !== policy.namespace;
}

/** What one `generate` (or one item of its `foreach`) makes (`GeneratePattern.Validate`). */
function patternProblems(
  pattern: Record<string, unknown>,
  at: Path,
  policy: GeneratingPolicy,
  add: AddProblem,
): void {
  const apiVersion = text(pattern.apiVersion);
  const kind = text(pattern.kind);
  const namespace = text(pattern.namespace);
  const clusterScoped = kind === '' ? undefined : policy.isClusterScoped(`${apiVersion}/${kind}`);
  const mismatched = (detail: string): void =>
    add([...at, 'namespace'], forbiddenValue(`target resource scope mismatched: ${detail}`), 'key');
  const expected = policy.namespace ?? "the policy's own";
  if (policy.namespaced) {
    const clone = isPlainObject(pattern.clone) ? pattern.clone : {};
    if (clusterScoped === true) {
      mismatched(`the target must be a namespaced resource: ${apiVersion}/${kind}`);
    } else if (otherNamespace(namespace, policy)) {
      mismatched(
        `a namespaced policy cannot generate resources in other namespaces, expected: ${expected}, received: ${shown(namespace)}`,
      );
    } else if (text(clone.name) !== '' && otherNamespace(text(clone.namespace), policy)) {
      mismatched(
        `a namespaced policy cannot clone resources from other namespaces, expected: ${expected}, received: ${shown(text(clone.namespace))}`,
      );
    }
  }
  if (clusterScoped === false && namespace === '') {
    add(
      [...at, 'namespace'],
      forbiddenValue('target namespace must be set for a namespaced resource'),
      'key',
    );
  } else if (clusterScoped === true && namespace !== '') {
    add(
      [...at, 'namespace'],
      forbiddenValue('target namespace must not be set for a cluster-wide resource'),
      'key',
    );
  }
  const cloneList = isPlainObject(pattern.cloneList) ? pattern.cloneList : undefined;
  const kinds = Array.isArray(cloneList?.kinds) ? cloneList.kinds : [];
  if (kinds.length === 0) {
    for (const field of ['kind', 'name', 'apiVersion']) {
      if (text(pattern[field]) === '') {
        add([...at, field], forbiddenValue(`${field} can not be empty`), 'key');
      }
    }
    return;
  }
  cloneListProblems(cloneList as Record<string, unknown>, kinds, [...at, 'cloneList'], policy, add);
}

/** A `cloneList` (`GeneratePattern.ValidateCloneList`). */
function cloneListProblems(
  cloneList: Record<string, unknown>,
  kinds: readonly unknown[],
  at: Path,
  policy: GeneratingPolicy,
  add: AddProblem,
): void {
  const namespace = text(cloneList.namespace);
  const scopes = kinds.map((kind) =>
    typeof kind === 'string' ? policy.isClusterScoped(kind) : undefined,
  );
  if (policy.namespaced) {
    kinds.forEach((kind, i) => {
      if (scopes[i] === true) {
        add(
          [...at, 'kinds', i],
          forbiddenValue(`the source in cloneList must be a namespaced resource: ${String(kind)}`),
        );
      }
    });
    if (otherNamespace(namespace, policy)) {
      add(
        [...at, 'namespace'],
        forbiddenValue(
          `a namespaced policy cannot clone resources from other namespace, expected: ${policy.namespace ?? "the policy's own"}, received: ${shown(namespace)}`,
        ),
        'key',
      );
    }
  }
  const [first] = scopes;
  const mixed = scopes.findIndex(
    (scope) => first !== undefined && scope !== undefined && scope !== first,
  );
  if (mixed !== -1) {
    add([...at, 'kinds', mixed], forbiddenValue('mixed scope of target resources is forbidden'));
  }
  if (first === false && namespace === '') {
    add(
      [...at, 'namespace'],
      forbiddenValue('namespace is required for namespaced target resources'),
      'key',
    );
  } else if (first === true && !policy.namespaced && namespace !== '') {
    add(
      [...at, 'namespace'],
      forbiddenValue('namespace is forbidden for cluster-wide target resources'),
      'key',
    );
  }
}
