import type { Kind, Pointer } from '../engine/resource/pointer.js';

/**
 * Where resources live in etcd. Under the state's prefix, each kind has a folder
 * `<prefix>/<namespace>/<type>/` (both URI-encoded, so neither can contain the separator):
 * its resources are at `r/<id>` (the id raw, it is the last segment) and one marker key `m`
 * sits beside them. The marker is written only to learn that a watch of the kind has caught up
 * with the past (see `EtcdState`'s tail replay); it is never listed.
 *
 * The kind's label index sits beside them too (see label-index.ts): an empty key
 * `l/<label key>/<label value>/<id>` (key and value URI-encoded) per label of a resource, and
 * `u/<id>` for a resource with too many labels to index in one transaction.
 *
 * A kind is then one contiguous key range, so a list is one range read and a watch of the kind
 * one range watch; a resource is one key, so its watch is one key watch.
 */
export class KeyLayout {
  readonly #root: string;

  constructor(prefix: string) {
    // `a/` and `a` are the same prefix: never two separators in a row.
    this.#root = `${prefix.replace(/\/+$/, '')}/`;
  }

  /** Every key of this state starts with this. */
  get root(): string {
    return this.#root;
  }

  /**
   * Each kind's folder and resource prefix, by type and namespace, made once: every write, read
   * and watch event asks for them. As many entries as kinds the state touched.
   */
  readonly #kinds = new Map<string, Map<string, { folder: string; resources: string }>>();

  /** The folder of a kind: its resources and its marker. */
  kindFolder(kind: Kind): string {
    return this.#kindKeys(kind).folder;
  }

  /** The prefix of the resources of a kind. */
  resourcePrefix(kind: Kind): string {
    return this.#kindKeys(kind).resources;
  }

  #kindKeys(kind: Kind): { folder: string; resources: string } {
    let byNamespace = this.#kinds.get(kind.type);
    if (byNamespace === undefined) {
      byNamespace = new Map();
      this.#kinds.set(kind.type, byNamespace);
    }
    let keys = byNamespace.get(kind.namespace);
    if (keys === undefined) {
      const folder = `${this.#root}${encodeURIComponent(kind.namespace)}/${encodeURIComponent(kind.type)}/`;
      keys = { folder, resources: `${folder}r/` };
      byNamespace.set(kind.namespace, keys);
    }
    return keys;
  }

  /** The marker key of a kind. */
  markerKey(kind: Kind): string {
    return `${this.kindFolder(kind)}m`;
  }

  /** The prefix of the index keys of the resources with label `key`, or `key=value`. */
  labelPrefix(kind: Kind, key: string, value?: string): string {
    const byKey = `${this.kindFolder(kind)}l/${encodeURIComponent(key)}/`;
    return value === undefined ? byKey : `${byKey}${encodeURIComponent(value)}/`;
  }

  /** The index key saying that the resource `pointer` has label `key=value`. */
  labelKey(pointer: Pointer, key: string, value: string): string {
    return `${this.labelPrefix(pointer, key, value)}${pointer.id}`;
  }

  /** The prefix of the keys of the resources whose labels are not indexed. */
  unindexedPrefix(kind: Kind): string {
    return `${this.kindFolder(kind)}u/`;
  }

  resourceKey(pointer: Pointer): string {
    return `${this.resourcePrefix(pointer)}${pointer.id}`;
  }

  /** The kind of a resource key under the root, or undefined for any other key. */
  parseKind(key: string): Kind | undefined {
    if (!key.startsWith(this.#root)) return undefined;
    const [namespace, type, folder] = key.slice(this.#root.length).split('/', 3);
    if (namespace === undefined || type === undefined || folder !== 'r') return undefined;
    return { namespace: decodeURIComponent(namespace), type: decodeURIComponent(type) };
  }
}

/** The end of the key range of all keys starting with `prefix` (etcd's `range_end`). */
export function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if ((end[i] as number) < 0xff) {
      end[i] = (end[i] as number) + 1;
      return end.subarray(0, i + 1);
    }
  }
  // All 0xff: to the end of the key space.
  return Buffer.from([0]);
}
