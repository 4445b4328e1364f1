import type { IKeyValue, IRequestOp, ITxnRequest, ITxnResponse } from 'etcd3';

/** Operations in one etcd transaction: etcd's `--max-txn-ops` default. */
export const TXN_MAX_OPS = 128;

/**
 * Bytes of keys and values one batched transaction carries at most: well under etcd's default
 * `--max-request-bytes` (1.5 MiB), so a batch is never refused for its size. A single write
 * larger than this goes alone (the callers check it against the request limit).
 */
export const TXN_MAX_BYTES = 1024 * 1024;

/** Batched transactions under way at once; writes issued meanwhile wait for the next batch. */
export const TXNS_IN_FLIGHT = 4;

/**
 * One resource's write, guarded by one compare on its key: the key was last modified at
 * `revision` (`mod`), or does not exist (`create`: its create revision is 0).
 */
export interface GuardedWrite {
  readonly key: Buffer;
  readonly guard:
    { readonly target: 'mod'; readonly revision: string } | { readonly target: 'create' };
  /** The write itself (a put or a delete of `key`) and its label index operations. */
  readonly ops: readonly IRequestOp[];
}

/** What became of a write: applied at `revision`, or refused by its guard (`succeeded: false`). */
export interface WriteOutcome {
  readonly succeeded: boolean;
  readonly revision: string;
}

interface Pending {
  readonly write: GuardedWrite;
  readonly bytes: number;
  readonly resolve: (outcome: WriteOutcome) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Puts the guarded writes issued close together into few etcd transactions. The writes issued
 * within one turn of the event loop (and those issued while {@link TXNS_IN_FLIGHT} transactions
 * are under way) go out together, as one transaction of all their operations with one compare
 * per key, up to {@link TXN_MAX_OPS} operations and {@link TXN_MAX_BYTES}. A write per request
 * cost a gRPC call and a raft entry each; batched, etcd applies dozens per entry.
 *
 * A transaction applies all of its writes or none. When one guard fails, the failure branch reads
 * every key of the batch in the same transaction, so the batcher tells exactly which guards
 * failed: those writes end refused (the caller reads again, as after a lone write's conflict) and
 * the others are sent again in the next batch. A write is never applied twice, and a request that
 * fails (etcd away, a deadline) fails every write it carried.
 *
 * Two writes of one key never share a transaction (etcd refuses a duplicate key): the later one
 * waits for a later batch, behind the first. The writes of a batch are sent in key order, so the
 * changes of one revision reach a watch in key order (see `EtcdWatch`).
 */
export class TxnBatcher {
  #pending: Pending[] = [];
  #inFlight = 0;
  #scheduled = false;

  constructor(private readonly send: (request: ITxnRequest) => Promise<ITxnResponse>) {}

  /** Writes waiting to be sent or under way. */
  get busy(): number {
    return this.#pending.length + this.#inFlight;
  }

  write(write: GuardedWrite): Promise<WriteOutcome> {
    return new Promise<WriteOutcome>((resolve, reject) => {
      this.#pending.push({ write, bytes: sizeOf(write), resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#inFlight >= TXNS_IN_FLIGHT) return;
    this.#scheduled = true;
    // The next turn: the writes the current one issues (in its microtasks too) join the batch.
    setImmediate(this.#flush);
  }

  readonly #flush = (): void => {
    this.#scheduled = false;
    while (this.#pending.length > 0 && this.#inFlight < TXNS_IN_FLIGHT) {
      const batch = this.#take();
      this.#inFlight++;
      void this.#run(batch).finally(() => {
        this.#inFlight--;
        if (this.#pending.length > 0) this.#schedule();
      });
    }
  };

  /** The next batch off the queue, in order, skipping (for later) a second write of a key. */
  #take(): Pending[] {
    const batch: Pending[] = [];
    const keys = new Set<string>();
    const rest: Pending[] = [];
    let ops = 0;
    let bytes = 0;
    let i = 0;
    for (; i < this.#pending.length; i++) {
      const item = this.#pending[i] as Pending;
      const key = item.write.key.toString('latin1');
      const itemOps = item.write.ops.length;
      if (batch.length > 0 && (ops + itemOps > TXN_MAX_OPS || bytes + item.bytes > TXN_MAX_BYTES)) {
        break;
      }
      if (keys.has(key)) {
        rest.push(item);
        continue;
      }
      keys.add(key);
      batch.push(item);
      ops += itemOps;
      bytes += item.bytes;
    }
    this.#pending = rest.concat(this.#pending.slice(i));
    batch.sort((a, b) => Buffer.compare(a.write.key, b.write.key));
    return batch;
  }

  async #run(batch: Pending[]): Promise<void> {
    let response: ITxnResponse;
    try {
      response = await this.send({
        compare: batch.map(({ write }) => compareOf(write)),
        success: batch.flatMap(({ write }) => write.ops),
        // A lone write needs no reads to tell why it failed.
        failure:
          batch.length === 1
            ? []
            : batch.map(({ write }) => ({ request_range: { key: write.key, keys_only: true } })),
      });
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    const revision = response.header.revision;
    if (response.succeeded) {
      for (const item of batch) item.resolve({ succeeded: true, revision });
      return;
    }
    if (batch.length === 1) {
      (batch[0] as Pending).resolve({ succeeded: false, revision });
      return;
    }
    const retry: Pending[] = [];
    batch.forEach((item, i) => {
      const kv = response.responses[i]?.response_range.kvs[0];
      if (guardHolds(item.write, kv)) retry.push(item);
      else item.resolve({ succeeded: false, revision });
    });
    // At least one guard failed, so the retry is smaller; it goes first, in its order.
    this.#pending = retry.concat(this.#pending);
  }
}

function compareOf(write: GuardedWrite): NonNullable<ITxnRequest['compare']>[number] {
  return write.guard.target === 'mod'
    ? { key: write.key, target: 'Mod', result: 'Equal', mod_revision: write.guard.revision }
    : { key: write.key, target: 'Create', result: 'Equal', create_revision: 0 };
}

/** Whether a write's guard holds for the key as read (`undefined`: absent). */
function guardHolds(write: GuardedWrite, kv: IKeyValue | undefined): boolean {
  if (write.guard.target === 'create') return kv === undefined;
  return kv !== undefined && kv.mod_revision === write.guard.revision;
}

function sizeOf(write: GuardedWrite): number {
  let bytes = 0;
  for (const op of write.ops) {
    const put = op.request_put;
    if (put) bytes += (put.key?.length ?? 0) + (put.value?.length ?? 0);
    const del = op.request_delete_range;
    if (del) bytes += del.key?.length ?? 0;
  }
  return bytes;
}
