/**
 * Validation ratcheting, as the API server's (`CRDValidationRatcheting`, GA in Kubernetes 1.33):
 * on an update, an error at a part of the value that did not change since the previous revision
 * is not reported again, so that a schema made stricter does not refuse the objects it finds.
 *
 * Which part an error belongs to, and whether it changed, follows the Go code
 * (`apiextensions-apiserver` `pkg/apiserver/validation/ratcheting.go`, `schema/cel/validation.go`;
 * `apiserver` `pkg/cel/common/equality.go`):
 *
 * - The new value is walked from the root, each node correlated with its previous value: an
 *   object's field with the previous field of the same name (when both revisions have it), an
 *   item of an `x-kubernetes-list-type: map` list with the previous item of the same keys. Items
 *   of other lists (`set`, atomic) are not correlated: they ratchet only with their whole list.
 *   At a Kubernetes object's root, `apiVersion` and `kind` never ratchet.
 * - An error ratchets when the node it belongs to is unchanged, or, when that node has no
 *   previous value to correlate with, its nearest correlated ancestor is. A node is unchanged
 *   when it is deeply equal to its previous value (a map list compared item by item by keys, so
 *   reordering it changes nothing).
 * - A schema error belongs to the node whose keyword failed: `required`, `maxProperties` and an
 *   undeclared key to the object, `maxItems` to the list; one inside `allOf`, `anyOf`, `oneOf`
 *   or `not` to the node that carries it. Fields a CRD's schema does not declare (pruned by the
 *   API server, refused by strict field validation) never ratchet; duplicate items of `set` and
 *   `map` lists are reported only if the previous revision had none anywhere.
 * - A CEL rule's violation belongs to the node that carries the rule (not its `fieldPath`);
 *   transition rules never ratchet, nor do errors that stop a rule (evaluation, cost).
 *
 * Unlike the Go code, a field that no schema declares (below `x-kubernetes-preserve-unknown-fields`)
 * is compared by value, not taken as changed.
 */

import { parseJsonPointer } from './json-pointer.js';
import type { SchemaProblem } from './schema-problem.js';
import { childSchema, isSchemaNode, type SchemaNode } from './schema-node.js';

/** A node of the new value, as ratcheting sees it. */
export interface Ratchet {
  /** Whether errors that belong to this node are not reported again. */
  readonly unchanged: boolean;
  /** The node of an object's field. */
  key(name: string): Ratchet;
  /** The node of a list's item. */
  index(i: number): Ratchet;
}

/** The node of a value under no correlated ancestor: nothing ratchets there. */
const NEVER: Ratchet = {
  unchanged: false,
  key: () => NEVER,
  index: () => NEVER,
};

/** A node with no previous value of its own: its errors ratchet with its nearest correlated ancestor. */
class Uncorrelated implements Ratchet {
  constructor(readonly ancestor: CorrelatedValue) {}

  get unchanged(): boolean {
    return this.ancestor.unchanged;
  }

  key(): Ratchet {
    return this;
  }

  index(): Ratchet {
    return this;
  }
}

/**
 * A node of the new value with its previous value (Go's `CorrelatedObject`): whether it is
 * unchanged is computed once, from its children's answers where it can.
 */
export class CorrelatedValue implements Ratchet {
  #unchanged: boolean | undefined;
  readonly #children = new Map<string | number, CorrelatedValue | undefined>();
  /** A map list's previous items by their keys; built on the first item asked for. */
  #previousByKeys: Map<string, unknown> | undefined;

  /**
   * @param typeMeta - the value is a whole Kubernetes object, whose `apiVersion` and `kind`
   *   never ratchet.
   */
  constructor(
    readonly value: unknown,
    readonly previous: unknown,
    readonly schema: SchemaNode | undefined,
    readonly typeMeta = false,
  ) {}

  get unchanged(): boolean {
    return (this.#unchanged ??= this.#isUnchanged());
  }

  key(name: string): Ratchet {
    if (this.typeMeta && (name === 'apiVersion' || name === 'kind')) return NEVER;
    return this.#field(name) ?? new Uncorrelated(this);
  }

  index(i: number): Ratchet {
    return this.#item(i) ?? new Uncorrelated(this);
  }

  /**
   * The node at a path inside the value (keys and indexes, or a JSON pointer), as deep as it
   * correlates. Asked only for a node with an error: the walk costs nothing until then.
   */
  at(path: readonly (string | number)[] | string): Ratchet {
    const segments = typeof path === 'string' ? parseJsonPointer(path) : path;
    return segments.reduce<Ratchet>(
      (node, segment) =>
        node instanceof CorrelatedValue && Array.isArray(node.value)
          ? node.index(Number(segment))
          : node.key(String(segment)),
      this,
    );
  }

  #field(name: string): CorrelatedValue | undefined {
    if (this.#children.has(name)) return this.#children.get(name);
    let child: CorrelatedValue | undefined;
    const value = this.value;
    const previous = this.previous;
    if (isObject(value) && isObject(previous) && hasOwn(value, name) && hasOwn(previous, name)) {
      child = new CorrelatedValue(
        value[name],
        previous[name],
        childSchema(this.schema, 'property', name),
      );
    }
    this.#children.set(name, child);
    return child;
  }

  #item(i: number): CorrelatedValue | undefined {
    if (this.#children.has(i)) return this.#children.get(i);
    let child: CorrelatedValue | undefined;
    const value = this.value;
    const keys = this.schema?.['x-kubernetes-list-map-keys'];
    if (
      Array.isArray(value) &&
      i < value.length &&
      Array.isArray(this.previous) &&
      this.schema?.['x-kubernetes-list-type'] === 'map' &&
      Array.isArray(keys) &&
      keys.length > 0
    ) {
      const previous = this.previous;
      const byKeys = (this.#previousByKeys ??= new Map(
        previous.flatMap((item) => {
          const key = mapKey(item, keys);
          return key === undefined ? [] : [[key, item] as const];
        }),
      ));
      const key = mapKey(value[i], keys);
      if (key !== undefined && byKeys.has(key)) {
        child = new CorrelatedValue(value[i], byKeys.get(key), childSchema(this.schema, 'items'));
      }
    }
    this.#children.set(i, child);
    return child;
  }

  #isUnchanged(): boolean {
    const { value, previous } = this;
    if (value === undefined || value === null || previous === undefined || previous === null) {
      return (value ?? null) === (previous ?? null);
    }
    if (Array.isArray(value)) {
      if (!Array.isArray(previous) || previous.length !== value.length) return false;
      if (this.schema?.['x-kubernetes-list-type'] !== 'map') return isDeepEqual(value, previous);
      return value.every((_, i) => this.#item(i)?.unchanged === true);
    }
    if (isObject(value)) {
      if (!isObject(previous)) return false;
      const keys = Object.keys(value);
      if (keys.length !== Object.keys(previous).length) return false;
      return keys.every((key) => {
        const child = this.#field(key);
        if (child === undefined) return false;
        return child.schema === undefined
          ? isDeepEqual(child.value, child.previous)
          : child.unchanged;
      });
    }
    return value === previous;
  }
}

/** The correlation of a value with its previous revision, to ratchet its errors. */
export function correlate(
  value: unknown,
  previous: unknown,
  schema: unknown,
  options: { readonly typeMeta?: boolean } = {},
): CorrelatedValue {
  return new CorrelatedValue(
    value,
    previous,
    isSchemaNode(schema) ? schema : undefined,
    options.typeMeta === true,
  );
}

/**
 * The schema problems of an update that are reported: those that do not ratchet (see the
 * module's comment). `previousProblems` checks the previous value (asked only when a list
 * holds an item twice).
 */
export function ratchetSchemaProblems(
  problems: readonly SchemaProblem[],
  correlation: CorrelatedValue,
  previousProblems: () => readonly SchemaProblem[],
): SchemaProblem[] {
  let previousHadDuplicates: boolean | undefined;
  return problems.filter((problem) => {
    if (problem.keyword === UNKNOWN_FIELD) return true;
    if (problem.keyword === LIST_TYPE) {
      previousHadDuplicates ??= previousProblems().some((p) => p.keyword === LIST_TYPE);
      return !previousHadDuplicates;
    }
    return !correlation.at(ownerOf(problem)).unchanged;
  });
}

/** The keyword of fields a CRD's schema does not declare (`unknown-fields.ts`). */
const UNKNOWN_FIELD = 'unknown-field';
/** The keyword of a `set` or `map` list that holds an item twice. */
const LIST_TYPE = 'x-kubernetes-list-type';

/** The node a problem belongs to: its own, the object of an undeclared key, or its `owner`. */
function ownerOf(problem: SchemaProblem): string {
  if (problem.owner !== undefined) return problem.owner;
  if (problem.part !== 'key') return problem.path;
  return problem.path.slice(0, problem.path.lastIndexOf('/'));
}

function mapKey(item: unknown, keys: readonly unknown[]): string | undefined {
  if (!isObject(item)) return undefined;
  return JSON.stringify(keys.map((k) => item[String(k)] ?? null));
}

function isDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => isDeepEqual(x, b[i]));
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => hasOwn(b, key) && isDeepEqual(a[key], b[key]))
    );
  }
  return false;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOwn(value: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}
