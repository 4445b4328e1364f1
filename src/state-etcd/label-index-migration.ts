import type { IKeyValue, IRequestOp, ITxnRequest } from 'etcd3';
import type { Kind } from '../engine/resource/pointer.js';
import type { Resource } from '../engine/resource/resource.js';
import type { CountedKv } from './etcd-connection.js';
import { prefixEnd, type KeyLayout } from './key-layout.js';
import { labelIndexOps } from './label-index.js';

/** etcd's `--max-txn-ops` default: a transaction's compares, and its operations, each at most. */
const TXN_MAX_OPS = 128;
/** Keys read per request when reading a kind's resources or its old index. */
const PAGE = 500;
/** Times a resource that keeps changing under the migration is read again before giving up. */
const RETRIES = 20;

/** What {@link migrateLegacyLabelIndex} did. */
export interface LabelIndexMigration {
  /** The kinds whose index was found at the old place and rebuilt at the new one. */
  readonly kinds: number;
  /** The old index keys removed. */
  readonly removed: number;
}

/**
 * Moves the label index an earlier version wrote inside each kind's folder (see
 * {@link KeyLayout.legacyIndexPrefixes}) to its place apart (see {@link KeyLayout}): run when a
 * state is opened, before it reads or writes anything else. Finding the kinds that have one
 * costs a read or two per kind (from the first key of each kind's folder, an index key when
 * there is one, to the `u/` keys past its resources, then to the next folder), so a state with
 * none is opened at about the cost of listing its kinds.
 *
 * For each such kind, the old keys are read, the index is rebuilt at the new place from the
 * kind's resources (it is derived from them), and only then are those old keys removed: a
 * process stopped part way leaves old keys, which the next open moves again. Each resource's
 * keys are written in a transaction that compares the resource's revision with the one read,
 * so that a resource another process changes meanwhile is read again: its new index keys are
 * of its labels as they are (the other process, of this version, keeps them in step from then
 * on), never of labels it had. Two processes opening the state at once both rebuild it: the
 * writes are the same, and a removal of a key already removed is nothing.
 *
 * A process of an earlier version still writing the state reads and writes the index at the
 * old place: it loses the old keys this removes (its label queries miss what they named, until
 * it stops), and the resources it writes after the move are indexed at the old place only,
 * until this version opens the state again. Versions are to be run one after the other on a
 * state (a rolling restart of `cosi run`'s processes leaves both running: see docs/etcd.md).
 *
 * Only keys whose value is empty are taken for old index keys: an index key is empty and a
 * resource never is, so no resource of another state whose range this one's overlaps (a nested
 * prefix: `a`'s namespace `b` is `a/b`'s root) is ever removed.
 */
export async function migrateLegacyLabelIndex(
  kv: CountedKv,
  layout: KeyLayout,
  decode: (key: string, kv: IKeyValue) => Resource,
): Promise<LabelIndexMigration> {
  let kinds = 0;
  let removed = 0;
  for (const kind of await legacyIndexedKinds(kv, layout)) {
    const old = await legacyKeys(kv, layout, kind);
    if (old.length === 0) continue;
    await rebuild(kv, layout, kind, decode);
    for (let i = 0; i < old.length; i += TXN_MAX_OPS) {
      await kv.txn({
        compare: [],
        success: old
          .slice(i, i + TXN_MAX_OPS)
          .map((key) => ({ request_delete_range: { key } }) satisfies IRequestOp),
      });
    }
    kinds++;
    removed += old.length;
  }
  return { kinds, removed };
}

/**
 * The kinds with a key under an old index prefix, found by skipping through the namespaces'
 * range: a kind's first key is its lowest (`l/` sorts before `m`, `r/` and `u/`), so one read
 * tells whether it has `l/` keys, and a second, from its `u/` keys on, whether it has those or
 * lands in the next kind.
 */
async function legacyIndexedKinds(kv: CountedKv, layout: KeyLayout): Promise<Kind[]> {
  const root = layout.root;
  const end = layout.namespacesEnd;
  const found: Kind[] = [];
  let from: Buffer = Buffer.from(root);
  let revision: number | undefined;
  for (;;) {
    const response = await kv.range({
      key: from,
      range_end: end,
      limit: 1,
      keys_only: true,
      ...(revision === undefined ? {} : { revision }),
    });
    revision ??= Number(response.header.revision);
    const first = response.kvs[0];
    if (first === undefined) return found;
    const key = first.key.toString();
    const namespaceEnd = key.indexOf('/', root.length);
    const typeEnd = namespaceEnd < 0 ? -1 : key.indexOf('/', namespaceEnd + 1);
    if (typeEnd < 0) {
      // No kind's key (the fingerprint, the applied set): past it.
      from = Buffer.concat([first.key, Buffer.from([0])]);
      continue;
    }
    const folder = key.slice(0, typeEnd + 1);
    const rest = key.slice(folder.length);
    if (rest.startsWith('l/') || rest.startsWith('u/')) {
      const namespace = safeDecode(key.slice(root.length, namespaceEnd));
      const type = safeDecode(key.slice(namespaceEnd + 1, typeEnd));
      if (namespace !== undefined && type !== undefined) found.push({ namespace, type });
      from = prefixEnd(Buffer.from(folder));
    } else if (rest < 'l/') {
      from = Buffer.from(`${folder}l/`);
    } else if (rest < 'u/') {
      from = Buffer.from(`${folder}u/`);
    } else {
      from = prefixEnd(Buffer.from(folder));
    }
  }
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The kind's keys under its old index prefixes that are index keys (empty). */
async function legacyKeys(kv: CountedKv, layout: KeyLayout, kind: Kind): Promise<Buffer[]> {
  const keys: Buffer[] = [];
  for (const prefix of layout.legacyIndexPrefixes(kind)) {
    for await (const found of pages(kv, Buffer.from(prefix))) {
      if (found.value.length === 0) keys.push(found.key);
    }
  }
  return keys;
}

/** A resource as read, with the index keys its labels make. */
interface Indexed {
  readonly key: Buffer;
  readonly modRevision: string;
  readonly ops: IRequestOp[];
}

/** Writes the index of every resource of `kind` at the new place. */
async function rebuild(
  kv: CountedKv,
  layout: KeyLayout,
  kind: Kind,
  decode: (key: string, kv: IKeyValue) => Resource,
): Promise<void> {
  const prefix = layout.resourcePrefix(kind);
  const indexed = (found: IKeyValue): Indexed | undefined => {
    const key = found.key.toString();
    let resource: Resource;
    try {
      resource = decode(key, found);
    } catch {
      // No resource (written by hand, or by another program): nothing to index.
      return undefined;
    }
    const pointer = { ...kind, id: key.slice(prefix.length) };
    const ops = labelIndexOps(layout, pointer, undefined, resource.metadata.labels);
    return { key: found.key, modRevision: found.mod_revision, ops };
  };
  let batch: Indexed[] = [];
  let puts = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const sent = batch;
    batch = [];
    puts = 0;
    const response = await kv.txn(guarded(sent));
    if (response.succeeded) return;
    // One of them changed meanwhile: each alone, read again until its write holds.
    for (const one of sent) await rebuildOne(kv, one, indexed);
  };
  for await (const found of pages(kv, Buffer.from(prefix))) {
    const one = indexed(found);
    if (one === undefined || one.ops.length === 0) continue;
    if (batch.length + 1 > TXN_MAX_OPS || puts + one.ops.length > TXN_MAX_OPS) await flush();
    batch.push(one);
    puts += one.ops.length;
  }
  await flush();
}

/** The transaction that writes the index keys of `resources` if none of them changed. */
function guarded(resources: readonly Indexed[]): ITxnRequest {
  return {
    compare: resources.map(({ key, modRevision }) => ({
      key,
      target: 'Mod',
      result: 'Equal',
      mod_revision: modRevision,
    })),
    success: resources.flatMap(({ ops }) => ops),
  };
}

/** One resource's index keys, written once a read of it and the write agree. */
async function rebuildOne(
  kv: CountedKv,
  first: Indexed,
  indexed: (found: IKeyValue) => Indexed | undefined,
): Promise<void> {
  let one: Indexed | undefined = first;
  for (let attempt = 0; attempt < RETRIES; attempt++) {
    if ((await kv.txn(guarded([one]))).succeeded) return;
    const found = (await kv.range({ key: one.key })).kvs[0];
    // Removed meanwhile (its writer removed its index keys too), or no resource any more.
    if (found === undefined) return;
    one = indexed(found);
    if (one === undefined) return;
  }
  throw new Error(
    `the label index could not be moved: ${first.key.toString()} changed ${RETRIES} times while it was read`,
  );
}

/** The keys and values under `prefix`, in pages, each page read at its own revision. */
async function* pages(kv: CountedKv, prefix: Buffer): AsyncGenerator<IKeyValue> {
  const end = prefixEnd(prefix);
  let from = prefix;
  for (;;) {
    const response = await kv.range({ key: from, range_end: end, limit: PAGE });
    yield* response.kvs;
    const last = response.kvs.at(-1);
    if (!response.more || last === undefined) return;
    from = Buffer.concat([last.key, Buffer.from([0])]);
  }
}
