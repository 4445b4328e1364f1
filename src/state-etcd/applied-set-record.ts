import type { Etcd3 } from 'etcd3';
import { compareStrings } from '../engine/compare-strings.js';
import type { Pointer } from '../engine/resource/pointer.js';
import type { NamedOwner } from '../engine/state/apply-over.js';
import type { AppliedEntry } from '../engine/state/resource-applier.js';
import type { CountedKv, EtcdConnection } from './etcd-connection.js';
import type { KeyLayout } from './key-layout.js';

/** The key (under the prefix) of the set of resources `cosi run` applied: chunks `.0000`, ... */
const APPLIED_SET = 'applied-set';

/**
 * What the applied set records of a resource: its pointer, its manifest's label and annotation
 * keys, the owners its manifest's owner references name, and the kept spec fields (a Kubernetes
 * kind's `status`) its manifest set.
 */
export interface AppliedMetadata extends Pointer {
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly ownerReferences?: readonly NamedOwner[];
  readonly specFields?: readonly string[];
}

/**
 * One resource in a chunk: `[namespace, type, id]`, then (when its manifest set any) the keys of
 * its labels and annotations, its owners as `[type, id]` and its kept spec fields. Entries of an
 * earlier version stop sooner.
 */
type RecordedEntry = [string, string, string, string[]?, string[]?, [string, string][]?, string[]?];
const APPLIED_CHUNK = /^applied-set\.\d{4}$/;
const APPLIED_CHUNK_BYTES = 1024 * 1024;

/**
 * The set of resources `cosi run` applied from its manifests, kept in etcd beside them (under
 * the state's prefix), as kubectl's ApplySet keeps the set an apply owns.
 */
export class AppliedSetRecord {
  readonly #layout: KeyLayout;
  readonly #connection: EtcdConnection;

  constructor(layout: KeyLayout, connection: EtcdConnection) {
    this.#layout = layout;
    this.#connection = connection;
  }

  /**
   * The resources `cosi run` applied from its manifests last (see {@link writeAppliedSet}), or
   * `undefined` when none was recorded here (a state no run of this version applied to).
   */
  async readAppliedSet(): Promise<AppliedEntry[] | undefined> {
    const client = await this.#connect();
    const start = `${this.#layout.root}${APPLIED_SET}.`;
    const response = await this.#kv(client).range({
      key: Buffer.from(start),
      // `.` is the character before `/`: the chunks, never a namespace's folder.
      range_end: Buffer.from(`${this.#layout.root}${APPLIED_SET}/`),
    });
    const chunks = response.kvs
      .map((kv) => ({ key: kv.key.toString(), value: kv.value.toString() }))
      .filter(({ key }) => APPLIED_CHUNK.test(key.slice(this.#layout.root.length)))
      .sort((a, b) => compareStrings(a.key, b.key));
    if (chunks.length === 0) return undefined;
    const entries: AppliedEntry[] = [];
    for (const { value } of chunks) {
      const parsed = JSON.parse(value) as RecordedEntry[];
      for (const [namespace, type, id, labels, annotations, owners, specFields] of parsed) {
        entries.push({
          namespace,
          type,
          id,
          ...(Array.isArray(labels) ? { labels } : {}),
          ...(Array.isArray(annotations) ? { annotations } : {}),
          ...(Array.isArray(owners)
            ? {
                ownerReferences: owners.map(([ownerType, ownerId]) => ({
                  type: ownerType,
                  id: ownerId,
                })),
              }
            : {}),
          ...(Array.isArray(specFields) ? { specFields } : {}),
        });
      }
    }
    return entries;
  }

  /**
   * Records the resources `cosi run` applied from its manifests (as kubectl's ApplySet keeps the
   * set an apply owns): the next run on this state prunes those its manifests no longer have,
   * and `cosi diff` shows them as removals. With each, the keys of the labels and annotations
   * its manifest set, the owners its owner references named and the kept spec fields it set:
   * the next run removes those its manifest dropped and keeps a controller's. Kept beside the resources under the prefix, in
   * chunks of at most 1 MiB (a request's limit is 1.5 MiB); chunks of a larger set before are
   * deleted.
   */
  async writeAppliedSet(applied: readonly AppliedMetadata[]): Promise<void> {
    const client = await this.#connect();
    const chunks: string[] = [];
    let chunk: string[] = [];
    let bytes = 0;
    for (const p of applied) {
      const entry = JSON.stringify(recordedEntry(p));
      if (chunk.length > 0 && bytes + entry.length > APPLIED_CHUNK_BYTES) {
        chunks.push(`[${chunk.join(',')}]`);
        chunk = [];
        bytes = 0;
      }
      chunk.push(entry);
      bytes += Buffer.byteLength(entry) + 1;
    }
    chunks.push(`[${chunk.join(',')}]`);
    const key = (index: number): string =>
      `${this.#layout.root}${APPLIED_SET}.${String(index).padStart(4, '0')}`;
    for (const [index, value] of chunks.entries()) {
      await this.#kv(client).put({ key: Buffer.from(key(index)), value: Buffer.from(value) });
    }
    // A larger set recorded before had more chunks: they go, from the first one past these.
    await this.#track(
      client.kv.deleteRange({
        key: Buffer.from(key(chunks.length)),
        range_end: Buffer.from(`${this.#layout.root}${APPLIED_SET}/`),
      }),
    );
  }

  async #connect(): Promise<Etcd3> {
    return this.#connection.connect();
  }

  #kv(client: Etcd3): CountedKv {
    return this.#connection.kv(client);
  }

  async #track<T>(request: Promise<T>): Promise<T> {
    return this.#connection.track(request);
  }
}

/** How an applied resource is recorded: as short as what its manifest set allows. */
function recordedEntry(p: AppliedMetadata): RecordedEntry {
  const labels = Object.keys(p.labels ?? {});
  const annotations = Object.keys(p.annotations ?? {});
  const owners = (p.ownerReferences ?? []).map((r): [string, string] => [r.type, r.id]);
  const specFields = [...(p.specFields ?? [])];
  if (specFields.length > 0) {
    return [p.namespace, p.type, p.id, labels, annotations, owners, specFields];
  }
  if (owners.length > 0) return [p.namespace, p.type, p.id, labels, annotations, owners];
  if (labels.length + annotations.length > 0) {
    return [p.namespace, p.type, p.id, labels, annotations];
  }
  return [p.namespace, p.type, p.id];
}
