/** Where resources of one type live: a namespace and a type. */
export interface Kind {
  /** A namespace, or {@link ALL_NAMESPACES} for a list, a watch or an input of every one. */
  readonly namespace: string;
  readonly type: string;
}

/**
 * The namespace of a kind that stands for every namespace of its type: a list or a watch of
 * `{ namespace: ALL_NAMESPACES, type }` (the state's `list` and `watchKind`) reads the type in
 * every namespace, those that get their first resource later included, and a controller input
 * of it reads and is woken by the type wherever it is, as controller-runtime's cache watches
 * every namespace. No resource is ever in it.
 */
export const ALL_NAMESPACES = '*';

/** Whether a kind stands for every namespace of its type ({@link ALL_NAMESPACES}). */
export function isAllNamespaces(kind: Kind): boolean {
  return kind.namespace === ALL_NAMESPACES;
}

/** Whether `kind` covers the resource (or kind) `p`: its type, in its namespace or in all. */
export function kindCovers(kind: Kind, p: Kind): boolean {
  return (
    kind.type === p.type && (kind.namespace === p.namespace || kind.namespace === ALL_NAMESPACES)
  );
}

/** One resource's address: namespace, type and id. */
export interface Pointer extends Kind {
  readonly id: string;
}

/** The key of the spec type a typed pointer or kind carries; no value has it. */
declare const specType: unique symbol;

/**
 * A pointer that knows the spec of what it points at, as a `defineResource` handle's
 * `pointer(id)` gives it: a read by it (`rt.get(VM.pointer('web-1'))`) is typed
 * `Resource<VMSpec>` without a type argument. A plain {@link Pointer} is one of any spec.
 */
export interface TypedPointer<S> extends Pointer {
  /** Never set: it only carries `S` for the type checker. */
  readonly [specType]?: S;
}

/** A kind that knows the spec of its resources, as a handle's `kind()` gives it (see {@link TypedPointer}). */
export interface TypedKind<S> extends Kind {
  /** Never set: it only carries `S` for the type checker. */
  readonly [specType]?: S;
}

/** A map key for a pointer; unambiguous because the parts cannot contain NUL. */
export function pointerKey(p: Pointer): string {
  return `${p.namespace}\0${p.type}\0${p.id}`;
}

/** A map key for a kind. */
export function kindKey(k: Kind): string {
  return `${k.namespace}\0${k.type}`;
}

/** Whether two pointers name the same resource. */
export function samePointer(a: Pointer, b: Pointer): boolean {
  return a.id === b.id && a.type === b.type && a.namespace === b.namespace;
}

/** `Type(namespace/id)`, the way COSI prints a resource in messages. */
export function formatPointer(p: Pointer): string {
  return `${p.type}(${p.namespace}/${p.id})`;
}

/** Copies only the address fields, so a pointer never keeps a whole resource alive. */
export function toPointer(p: Pointer): Pointer {
  return { namespace: p.namespace, type: p.type, id: p.id };
}
