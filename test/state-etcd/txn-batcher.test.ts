/**
 * The batcher's choices, against a fake etcd that applies transactions as etcd does (all or
 * nothing on its compares): what shares a transaction, and what a failed one becomes.
 */
import type { IRequestOp, ITxnRequest, ITxnResponse } from 'etcd3';
import { describe, expect, it } from 'vitest';
import {
  TXN_MAX_BYTES,
  TXN_MAX_OPS,
  TxnBatcher,
  type GuardedWrite,
} from '../../src/state-etcd/txn-batcher.js';

/** A key-value store with revisions, answering transactions of puts, deletes and ranges. */
class FakeEtcd {
  readonly keys = new Map<string, { mod: number; create: number }>();
  readonly requests: ITxnRequest[] = [];
  revision = 1;
  failNext: Error | undefined;

  readonly send = async (request: ITxnRequest): Promise<ITxnResponse> => {
    await Promise.resolve();
    this.requests.push(request);
    if (this.failNext) {
      const error = this.failNext;
      this.failNext = undefined;
      throw error;
    }
    const puts = (request.success ?? []).map((op) =>
      String(op.request_put?.key ?? op.request_delete_range?.key),
    );
    if (new Set(puts).size !== puts.length) throw new Error('duplicate key given in txn request');
    const holds = (request.compare ?? []).every((c) => {
      const at = this.keys.get(String(c.key));
      return c.target === 'Create'
        ? (at?.create ?? 0) === Number(c.create_revision)
        : (at?.mod ?? 0) === Number(c.mod_revision);
    });
    const ops = (holds ? request.success : request.failure) ?? [];
    if (holds && ops.length > 0) this.revision++;
    const responses = ops.map((op) => this.#apply(op));
    return {
      header: { revision: String(this.revision) },
      succeeded: holds,
      responses,
    } as unknown as ITxnResponse;
  };

  #apply(op: IRequestOp): unknown {
    if (op.request_put) {
      const key = String(op.request_put.key);
      const create = this.keys.get(key)?.create ?? this.revision;
      this.keys.set(key, { mod: this.revision, create });
      return {};
    }
    if (op.request_delete_range) {
      this.keys.delete(String(op.request_delete_range.key));
      return {};
    }
    const key = String(op.request_range?.key);
    const at = this.keys.get(key);
    const kvs = at
      ? [
          {
            key: Buffer.from(key),
            mod_revision: String(at.mod),
            create_revision: String(at.create),
          },
        ]
      : [];
    return { response_range: { kvs } };
  }
}

const put = (key: string, extraOps = 0, bytes = 10): GuardedWrite => ({
  key: Buffer.from(key),
  guard: { target: 'create' },
  ops: [
    { request_put: { key: Buffer.from(key), value: Buffer.alloc(bytes) } },
    ...Array.from({ length: extraOps }, (_, i) => ({
      request_put: { key: Buffer.from(`${key}/index/${i}`), value: Buffer.alloc(0) },
    })),
  ],
});

const swap = (key: string, revision: number): GuardedWrite => ({
  key: Buffer.from(key),
  guard: { target: 'mod', revision: String(revision) },
  ops: [{ request_put: { key: Buffer.from(key), value: Buffer.alloc(1) } }],
});

describe('TxnBatcher', () => {
  it('sends the writes of one turn as one transaction, in key order, one revision for all', async () => {
    const etcd = new FakeEtcd();
    const batcher = new TxnBatcher(etcd.send);
    const outcomes = await Promise.all(['c', 'a', 'b'].map((key) => batcher.write(put(key))));
    expect(etcd.requests).toHaveLength(1);
    expect(etcd.requests[0]?.success?.map((op) => String(op.request_put?.key))).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(outcomes).toEqual(Array(3).fill({ succeeded: true, revision: '2' }));
    expect(batcher.busy).toBe(0);
  });

  it('fails only the writes whose guard fails, and applies the others in a second transaction', async () => {
    const etcd = new FakeEtcd();
    const batcher = new TxnBatcher(etcd.send);
    await Promise.all(['a', 'b', 'c'].map((key) => batcher.write(put(key))));
    const written = etcd.revision;
    const outcomes = await Promise.all([
      batcher.write(swap('a', written)),
      batcher.write(swap('b', written - 1)),
      batcher.write(put('c')),
      batcher.write(put('d')),
    ]);
    expect(outcomes.map((o) => o.succeeded)).toEqual([true, false, false, true]);
    expect(etcd.requests).toHaveLength(3);
    expect(etcd.keys.get('a')?.mod).toBe(written + 1);
    expect(etcd.keys.get('b')?.mod).toBe(written);
    expect(etcd.keys.get('d')?.mod).toBe(written + 1);
  });

  it('never puts two writes of one key in a transaction: the second waits, in its order', async () => {
    const etcd = new FakeEtcd();
    const batcher = new TxnBatcher(etcd.send);
    const first = batcher.write(put('a'));
    const second = batcher.write(put('a'));
    const other = batcher.write(put('b'));
    expect(await first).toEqual({ succeeded: true, revision: '2' });
    expect(await other).toEqual({ succeeded: true, revision: '2' });
    expect((await second).succeeded).toBe(false);
    expect(etcd.requests.map((r) => r.success?.length)).toEqual([2, 1]);
  });

  it('splits a batch at etcd’s operation limit and at its byte budget', async () => {
    const etcd = new FakeEtcd();
    const batcher = new TxnBatcher(etcd.send);
    // 40 operations each: three fit in 128, the fourth starts a new transaction.
    await Promise.all(['a', 'b', 'c', 'd'].map((key) => batcher.write(put(key, 39))));
    expect(etcd.requests.map((r) => r.success?.length)).toEqual([120, 40]);
    for (const r of etcd.requests) expect(r.success?.length).toBeLessThanOrEqual(TXN_MAX_OPS);

    const big = Math.floor(TXN_MAX_BYTES / 2);
    etcd.requests.length = 0;
    await Promise.all(['e', 'f', 'g'].map((key) => batcher.write(put(key, 0, big))));
    expect(etcd.requests.map((r) => r.success?.length)).toEqual([1, 1, 1]);
  });

  it('fails every write of a request etcd did not answer, and goes on with the next', async () => {
    const etcd = new FakeEtcd();
    const batcher = new TxnBatcher(etcd.send);
    etcd.failNext = new Error('14 UNAVAILABLE');
    const results = await Promise.allSettled(['a', 'b'].map((key) => batcher.write(put(key))));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(etcd.keys.size).toBe(0);
    expect(await batcher.write(put('a'))).toEqual({ succeeded: true, revision: '2' });
  });
});
