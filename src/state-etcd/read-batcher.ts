import type { IKeyValue, ITxnRequest, ITxnResponse } from 'etcd3';
import { TXN_MAX_OPS, TXNS_IN_FLIGHT } from './txn-batcher.js';

/** A key as read: its key-value pair (undefined when absent) and the cluster that answered. */
export interface KeyRead {
  readonly kv: IKeyValue | undefined;
  readonly clusterId: string;
  /** The revision etcd read it at. */
  readonly revision: number;
}

interface Waiting {
  readonly resolve: (read: KeyRead) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Puts the reads of single keys issued close together into few etcd requests: the keys asked
 * for within one turn of the event loop (and while {@link TXNS_IN_FLIGHT} such requests are under
 * way) are read by one transaction of range operations, up to {@link TXN_MAX_OPS} keys, all at
 * one revision. A key asked for twice is read once. A request per key cost a gRPC call each, and
 * the calls, not etcd, were the time.
 */
export class ReadBatcher {
  /** Keys to read, each with who waits for it (insertion order: first asked, first read). */
  #pending = new Map<string, { key: Buffer; waiting: Waiting[] }>();
  #inFlight = 0;
  #scheduled = false;

  constructor(private readonly send: (request: ITxnRequest) => Promise<ITxnResponse>) {}

  /** Reads waiting to be sent or under way. */
  get busy(): number {
    return this.#pending.size + this.#inFlight;
  }

  read(key: Buffer): Promise<KeyRead> {
    return new Promise<KeyRead>((resolve, reject) => {
      const id = key.toString('latin1');
      const entry = this.#pending.get(id) ?? { key, waiting: [] };
      entry.waiting.push({ resolve, reject });
      this.#pending.set(id, entry);
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#inFlight >= TXNS_IN_FLIGHT) return;
    this.#scheduled = true;
    setImmediate(this.#flush);
  }

  readonly #flush = (): void => {
    this.#scheduled = false;
    while (this.#pending.size > 0 && this.#inFlight < TXNS_IN_FLIGHT) {
      const batch: { key: Buffer; waiting: Waiting[] }[] = [];
      for (const [id, entry] of this.#pending) {
        if (batch.length === TXN_MAX_OPS) break;
        batch.push(entry);
        this.#pending.delete(id);
      }
      this.#inFlight++;
      void this.#run(batch).finally(() => {
        this.#inFlight--;
        if (this.#pending.size > 0) this.#schedule();
      });
    }
  };

  async #run(batch: { key: Buffer; waiting: Waiting[] }[]): Promise<void> {
    let response: ITxnResponse;
    try {
      response = await this.send({
        compare: [],
        success: batch.map(({ key }) => ({ request_range: { key } })),
      });
    } catch (error) {
      for (const { waiting } of batch) for (const w of waiting) w.reject(error);
      return;
    }
    const clusterId = response.header.cluster_id;
    const revision = Number(response.header.revision);
    batch.forEach(({ waiting }, i) => {
      const kv = response.responses[i]?.response_range.kvs[0];
      for (const w of waiting) w.resolve({ kv, clusterId, revision });
    });
  }
}
