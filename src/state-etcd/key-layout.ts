import type { Kind, Pointer } from '../engine/resource/pointer.js';

/**
 * The character after the state's root that starts its label index: above every byte a
 * URI-encoded namespace can start with (`encodeURIComponent` leaves only printable ASCII below
 * it: letters, digits, `-_.!~*'()` and `%`), so every namespace's keys sort before it.
 */
const INDEX_MARK = '\x7f';

/**
 * Where resources live in etcd. Under the state's prefix, each kind has a folder
 * `<prefix>/<namespace>/<type>/` (both URI-encoded, so neither can contain the separator):
 * its resources are at `r/<id>` (the id raw, it is the last segment) and one marker key `m`
 * sits beside them. The marker is written only to learn that a watch of the kind has caught up
 * with the past (see `EtcdState`'s tail replay); it is never listed.
 *
 * A kind is then one contiguous key range, so a list is one range read and a watch of the kind
 * one range watch; a resource is one key, so its watch is one key watch.
 *
 * The label index (see label-index.ts) sits apart, under `<prefix>/\x7f/` (the DEL character):
 * an empty key `<namespace>/<type>/l/<label key>/<label value>/<id>` (key and value URI-encoded)
 * per label of a resource, and `<namespace>/<type>/u/<id>` for a resource with too many labels
 * to index in one transaction. Every namespace's folder sorts before `<prefix>/\x7f` (see
 * {@link INDEX_MARK}), so the namespaces are the one range `[<prefix>/, <prefix>/\x7f)`
 * ({@link KeyLayout.namespacesEnd}): the watch of every namespace, which etcd must send every
 * change of its range, and the reads that find the namespaces or the kinds cover the resources
 * and not the index, whose keys were a fifth of the changes of a converging project (one per
 * label of every resource written) that the process decoded only to drop.
 *
 * Why under the prefix rather than beside it (`<prefix>\x7f/...`): every key of a state still
 * starts with `<prefix>/`, so a state is deleted, copied or backed up as one prefix
 * (`etcdctl del --prefix <prefix>/`), and two states never meet: `a` and `a.b` have the disjoint
 * roots `a/` and `a.b/`. Nested prefixes (`a` and `a/b`) share a range as they always did (`a`'s
 * namespace `b` is `a/b`'s root): `a` takes no key of `a/b` for one of its resources (a resource
 * key has `r` as its third segment: `a/b`'s would need a type named `r`), and none of `a/b`'s
 * index (its first segment `\x7f` is no URI-encoded type: {@link KeyLayout.parseKind} refuses
 * it); a prefix with the DEL character in it is refused, as it could be another state's index.
 *
 * What else lies in the namespaces' range, so that the watch of every namespace gets it (and
 * drops it, as no resource): the marker keys (one write per tail replay), the leader election's
 * keys (`<prefix>/election/<name>/<lease>`, one per campaign) and the leader's fingerprint
 * (`<prefix>/fingerprint`, one per leadership), and the applied set (`<prefix>/applied-set.NNNN`,
 * one write per apply of the manifests). None changes with the resources; the election's and
 * the fingerprint's keys stay where every version looks for them, so that two versions still
 * elect one leader.
 *
 * Earlier versions kept the index inside each kind's folder (`<folder>l/...`, `<folder>u/...`):
 * see {@link KeyLayout.legacyIndexPrefixes} and label-index-migration.ts, which moves it here
 * when a state is opened.
 */
export class KeyLayout {
  readonly #root: string;
  readonly #indexRoot: string;
  readonly #namespacesEnd: Buffer;

  constructor(prefix: string) {
    if (prefix.includes(INDEX_MARK)) {
      throw new RangeError(
        `an etcd state's prefix may not hold the DEL character (U+007F): ${JSON.stringify(prefix)}`,
      );
    }
    // `a/` and `a` are the same prefix: never two separators in a row.
    this.#root = `${prefix.replace(/\/+$/, '')}/`;
    this.#indexRoot = `${this.#root}${INDEX_MARK}/`;
    this.#namespacesEnd = Buffer.from(`${this.#root}${INDEX_MARK}`);
  }

  /** Every key of this state starts with this. */
  get root(): string {
    return this.#root;
  }

  /**
   * The end (exclusive) of the namespaces' range, which starts at {@link root}: every resource,
   * marker, election and applied-set key, and none of the label index's.
   */
  get namespacesEnd(): Buffer {
    return this.#namespacesEnd;
  }

  /** Every key of the label index starts with this. */
  get indexRoot(): string {
    return this.#indexRoot;
  }

  /**
   * Each kind's folder, resource prefix and index folder, by type and namespace, made once:
   * every write, read and watch event asks for them. As many entries as kinds the state touched.
   */
  readonly #kinds = new Map<string, Map<string, KindKeys>>();

  /** The folder of a kind: its resources and its marker. */
  kindFolder(kind: Kind): string {
    return this.#kindKeys(kind).folder;
  }

  /** The prefix of the resources of a kind. */
  resourcePrefix(kind: Kind): string {
    return this.#kindKeys(kind).resources;
  }

  #kindKeys(kind: Kind): KindKeys {
    let byNamespace = this.#kinds.get(kind.type);
    if (byNamespace === undefined) {
      byNamespace = new Map();
      this.#kinds.set(kind.type, byNamespace);
    }
    let keys = byNamespace.get(kind.namespace);
    if (keys === undefined) {
      const path = `${encodeURIComponent(kind.namespace)}/${encodeURIComponent(kind.type)}/`;
      const folder = `${this.#root}${path}`;
      keys = { folder, resources: `${folder}r/`, index: `${this.#indexRoot}${path}` };
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
    const byKey = `${this.#kindKeys(kind).index}l/${encodeURIComponent(key)}/`;
    return value === undefined ? byKey : `${byKey}${encodeURIComponent(value)}/`;
  }

  /** The index key saying that the resource `pointer` has label `key=value`. */
  labelKey(pointer: Pointer, key: string, value: string): string {
    return `${this.labelPrefix(pointer, key, value)}${pointer.id}`;
  }

  /** The prefix of the keys of the resources whose labels are not indexed. */
  unindexedPrefix(kind: Kind): string {
    return `${this.#kindKeys(kind).index}u/`;
  }

  /**
   * Where earlier versions kept a kind's label index, inside its folder: `l/<key>/<value>/<id>`
   * and `u/<id>`, in the range of the watch of every namespace. Read only to move it.
   */
  legacyIndexPrefixes(kind: Kind): readonly [labels: string, unindexed: string] {
    const { folder } = this.#kindKeys(kind);
    return [`${folder}l/`, `${folder}u/`];
  }

  resourceKey(pointer: Pointer): string {
    return `${this.resourcePrefix(pointer)}${pointer.id}`;
  }

  /** The kind of a resource key under the root, or undefined for any other key. */
  parseKind(key: string): Kind | undefined {
    if (!key.startsWith(this.#root)) return undefined;
    const [namespace, type, folder] = key.slice(this.#root.length).split('/', 3);
    if (namespace === undefined || type === undefined || folder !== 'r') return undefined;
    // A nested prefix's index (`<root><namespace>/\x7f/r/...`): no URI-encoded name has it.
    if (type.includes(INDEX_MARK) || namespace.includes(INDEX_MARK)) return undefined;
    return { namespace: decodeURIComponent(namespace), type: decodeURIComponent(type) };
  }
}

/** A kind's keys (see {@link KeyLayout}). */
interface KindKeys {
  /** `<root><namespace>/<type>/`: its resources and its marker. */
  readonly folder: string;
  /** `<folder>r/` */
  readonly resources: string;
  /** `<root>\x7f/<namespace>/<type>/`: its label index. */
  readonly index: string;
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
