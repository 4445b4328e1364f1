/** The read batcher against a fake etcd: what shares a request, and what a failed one does. */
import type { ITxnRequest, ITxnResponse } from 'etcd3';
import { describe, expect, it } from 'vitest';
import { ReadBatcher } from '../../src/state-etcd/read-batcher.js';
import { TXN_MAX_OPS } from '../../src/state-etcd/txn-batcher.js';

function fakeEtcd(values: Record<string, string>, fail?: Error) {
  const requests: ITxnRequest[] = [];
  const send = async (request: ITxnRequest): Promise<ITxnResponse> => {
    await Promise.resolve();
    requests.push(request);
    if (fail) throw fail;
    const responses = (request.success ?? []).map((op) => {
      const key = String(op.request_range?.key);
      const value = values[key];
      const kvs = value === undefined ? [] : [{ key: Buffer.from(key), value: Buffer.from(value) }];
      return { response_range: { kvs } };
    });
    return { header: { cluster_id: '7' }, succeeded: true, responses } as unknown as ITxnResponse;
  };
  return { requests, send };
}

describe('ReadBatcher', () => {
  it('reads the keys asked for in one turn with one request, a key asked twice once', async () => {
    const etcd = fakeEtcd({ a: 'A', b: 'B' });
    const reader = new ReadBatcher(etcd.send);
    const reads = await Promise.all(['a', 'b', 'a', 'z'].map((k) => reader.read(Buffer.from(k))));
    expect(etcd.requests).toHaveLength(1);
    expect(etcd.requests[0]?.success?.map((op) => String(op.request_range?.key))).toEqual([
      'a',
      'b',
      'z',
    ]);
    expect(reads.map((r) => r.kv?.value.toString())).toEqual(['A', 'B', 'A', undefined]);
    expect(reads[0]?.clusterId).toBe('7');
    expect(reader.busy).toBe(0);
  });

  it('splits at etcd’s operation limit', async () => {
    const etcd = fakeEtcd({});
    const reader = new ReadBatcher(etcd.send);
    const keys = Array.from({ length: TXN_MAX_OPS + 1 }, (_, i) => Buffer.from(`k${i}`));
    await Promise.all(keys.map((key) => reader.read(key)));
    expect(etcd.requests.map((r) => r.success?.length)).toEqual([TXN_MAX_OPS, 1]);
  });

  it('fails every read of a request etcd did not answer', async () => {
    const etcd = fakeEtcd({}, new Error('14 UNAVAILABLE'));
    const reader = new ReadBatcher(etcd.send);
    const results = await Promise.allSettled(['a', 'b'].map((k) => reader.read(Buffer.from(k))));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
