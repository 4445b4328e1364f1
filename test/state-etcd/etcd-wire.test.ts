/**
 * cosi's own encoding of etcd's messages (etcd-wire.ts) against protobufjs's, from the `.proto`
 * files the etcd3 client ships (etcd's rpc.proto and kv.proto): what cosi writes, protobufjs
 * reads back as meant, and what protobufjs writes, cosi reads as the etcd3 client would. A wrong
 * field number or wire type fails here, not against a live etcd.
 */
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { IKeyValue, IRangeRequest, ITxnRequest } from 'etcd3';
import { describe, expect, it } from 'vitest';
import {
  decodeRangeResponse,
  decodeTxnResponse,
  decodeWatchResponse,
  encodeRangeRequest,
  encodeTxnRequest,
  encodeWatchCancel,
  encodeWatchCreate,
} from '../../src/state-etcd/etcd-wire.js';
import { ProtoReader, ProtoWriter } from '../../src/state-etcd/protobuf-wire.js';

const require = createRequire(import.meta.url);

interface PbType {
  encode(message: unknown): { finish(): Uint8Array };
  decode(buffer: Uint8Array): unknown;
  fromObject(object: unknown): unknown;
  toObject(message: unknown, options: Record<string, unknown>): Record<string, unknown>;
}
const protobuf = require('protobufjs') as {
  Root: new () => {
    loadSync(file: string, options: { keepCase: boolean }): { lookupType(name: string): PbType };
  };
};
const protoDir = path.join(path.dirname(require.resolve('etcd3/package.json')), 'proto');
// keepCase: the field names of the .proto (protobufjs makes them camelCase by default).
const root = new protobuf.Root().loadSync(path.join(protoDir, 'rpc.proto'), { keepCase: true });
const type = (name: string): PbType => root.lookupType(name);

/** protobufjs's reading of bytes cosi wrote, as plain values (longs as strings). */
function pbRead(name: string, bytes: Buffer): Record<string, unknown> {
  const t = type(name);
  return t.toObject(t.decode(bytes), { longs: String, enums: String, bytes: Buffer, oneofs: true });
}

/** protobufjs's encoding of a message given as plain values. */
function pbWrite(name: string, object: unknown): Buffer {
  const t = type(name);
  return Buffer.from(t.encode(t.fromObject(object)).finish());
}

const b = (s: string): Buffer => Buffer.from(s);

/** A message's plain values without the fields set to proto3's defaults (empty bytes, Equal). */
function stripDefaults(value: unknown): unknown {
  if (Buffer.isBuffer(value) || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(stripDefaults);
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => !(Buffer.isBuffer(v) && v.length === 0) && v !== 'Equal')
      .map(([k, v]) => [k, stripDefaults(v)]),
  );
}
const big = '18446744073709551615'; // 2^64 - 1: a cluster id uses all 64 bits.

describe('etcd-wire: requests, read back by protobufjs', () => {
  it('encodes a range request with every field cosi sets', () => {
    const request: IRangeRequest = {
      key: b('/a/'),
      range_end: b('/a0'),
      limit: 500,
      revision: '123456789012',
      keys_only: true,
      count_only: true,
      serializable: true,
      sort_order: 'Descend',
      sort_target: 'Mod',
      min_mod_revision: 3,
    };
    const bytes = encodeRangeRequest(request);
    // Byte for byte protobufjs's encoding: it reads loosely (an empty length-delimited field as
    // a 0 integer, which etcd refuses), so equal bytes are the test that counts.
    expect(bytes).toEqual(pbWrite('etcdserverpb.RangeRequest', request));
    const read = pbRead('etcdserverpb.RangeRequest', bytes);
    expect(read).toMatchObject({
      key: b('/a/'),
      range_end: b('/a0'),
      limit: '500',
      revision: '123456789012',
      keys_only: true,
      count_only: true,
      serializable: true,
      sort_order: 'Descend',
      sort_target: 'Mod',
      min_mod_revision: '3',
    });
  });

  it('encodes a transaction: compares (a 0 create revision too), puts, deletes, ranges', () => {
    const value = Buffer.alloc(70_000, 7); // A length of three varint bytes.
    const request: ITxnRequest = {
      compare: [
        { key: b('k1'), target: 'Mod', result: 'Equal', mod_revision: '41' },
        { key: b('k2'), target: 'Create', result: 'Equal', create_revision: 0 },
        { key: b('k3'), target: 'Value', result: 'NotEqual', value: b('v') },
      ],
      success: [
        { request_put: { key: b('k1'), value } },
        { request_put: { key: b('empty'), value: Buffer.alloc(0) } },
        { request_delete_range: { key: b('k2'), range_end: b('k3') } },
        { request_range: { key: b('k4'), revision: 9, keys_only: true } },
      ],
      failure: [{ request_range: { key: b('k1'), keys_only: true } }],
    };
    const bytes = encodeTxnRequest(request);
    // protobufjs writes a field set to its default (an empty value, the enum Equal: 0) where
    // proto3, and etcd's own Go client, leave it out: the same bytes once those are not given.
    const withoutDefaults = stripDefaults(request);
    expect(bytes).toEqual(pbWrite('etcdserverpb.TxnRequest', withoutDefaults));
    const read = pbRead('etcdserverpb.TxnRequest', bytes);
    const compare = read['compare'] as Record<string, unknown>[];
    expect(compare).toHaveLength(3);
    expect(compare[0]).toMatchObject({ key: b('k1'), target: 'Mod', mod_revision: '41' });
    expect(compare[0]?.['result'] ?? 'Equal').toBe('Equal');
    // The oneof member is set, at 0: etcd compares the create revision with 0 (an absent key).
    expect(compare[1]).toMatchObject({
      key: b('k2'),
      target: 'Create',
      create_revision: '0',
      target_union: 'create_revision',
    });
    expect(compare[2]).toMatchObject({ result: 'NotEqual', target: 'Value', value: b('v') });
    const success = read['success'] as Record<string, Record<string, unknown>>[];
    expect(success[0]?.['request_put']).toMatchObject({ key: b('k1'), value });
    expect(success[1]?.['request_put']?.['key']).toEqual(b('empty'));
    expect(success[2]?.['request_delete_range']).toMatchObject({
      key: b('k2'),
      range_end: b('k3'),
    });
    expect(success[3]?.['request_range']).toMatchObject({
      key: b('k4'),
      revision: '9',
      keys_only: true,
    });
    const failure = read['failure'] as Record<string, Record<string, unknown>>[];
    expect(failure[0]?.['request_range']).toMatchObject({ key: b('k1'), keys_only: true });
  });

  it('encodes watch creations and cancellations', () => {
    expect(
      encodeWatchCreate({ key: b('/p/'), rangeEnd: b('/p0'), startRevision: 77, prevKv: true }),
    ).toEqual(
      pbWrite('etcdserverpb.WatchRequest', {
        create_request: { key: b('/p/'), range_end: b('/p0'), start_revision: 77, prev_kv: true },
      }),
    );
    expect(encodeWatchCancel(12)).toEqual(
      pbWrite('etcdserverpb.WatchRequest', { cancel_request: { watch_id: 12 } }),
    );
    expect(
      pbRead(
        'etcdserverpb.WatchRequest',
        encodeWatchCreate({ key: b('/p/'), rangeEnd: b('/p0'), startRevision: 77, prevKv: true }),
      ),
    ).toMatchObject({
      request_union: 'create_request',
      create_request: { key: b('/p/'), range_end: b('/p0'), start_revision: '77', prev_kv: true },
    });
    expect(pbRead('etcdserverpb.WatchRequest', encodeWatchCancel(12))).toMatchObject({
      request_union: 'cancel_request',
      cancel_request: { watch_id: '12' },
    });
  });
});

describe('etcd-wire: responses written by protobufjs', () => {
  const header = { cluster_id: big, member_id: '42', revision: '9007199254740991', raft_term: 3 };
  const kv = (key: string, value: string, mod: number): Record<string, unknown> => ({
    key: b(key),
    value: b(value),
    create_revision: 2,
    mod_revision: mod,
    version: 5,
    lease: 0,
  });
  const expectKv = (actual: IKeyValue | undefined, key: string, value: string, mod: number) => {
    expect(actual?.key.toString()).toBe(key);
    expect(actual?.value.toString()).toBe(value);
    expect(actual?.mod_revision).toBe(String(mod));
    expect(actual?.create_revision).toBe('2');
    expect(actual?.version).toBe('5');
  };

  it('decodes a range response, 64-bit cluster ids exact', () => {
    const response = decodeRangeResponse(
      pbWrite('etcdserverpb.RangeResponse', {
        header,
        kvs: [kv('/a/1', '{"x":1}', 10), kv('/a/2', '', 300_000)],
        more: true,
        count: 2,
      }),
    );
    expect(response.header).toEqual({
      cluster_id: big,
      member_id: '42',
      revision: '9007199254740991',
      raft_term: '3',
    });
    expect(response.more).toBe(true);
    expect(response.count).toBe('2');
    expect(response.kvs).toHaveLength(2);
    expectKv(response.kvs[0], '/a/1', '{"x":1}', 10);
    expectKv(response.kvs[1], '/a/2', '', 300_000);
  });

  it('decodes every cluster id as protobufjs does', () => {
    for (const id of ['0', '1', '127', '128', '4294967295', '4294967296', '14841639068965178418']) {
      const response = decodeRangeResponse(
        pbWrite('etcdserverpb.RangeResponse', { header: { cluster_id: id } }),
      );
      expect(response.header.cluster_id).toBe(id);
      expect(response.kvs).toEqual([]);
      expect(response.more).toBe(false);
    }
  });

  it('decodes a transaction response of range, put and delete results', () => {
    const response = decodeTxnResponse(
      pbWrite('etcdserverpb.TxnResponse', {
        header,
        succeeded: true,
        responses: [
          { response_range: { header, kvs: [kv('k', 'v', 8)] } },
          { response_range: { header } },
          { response_put: { header } },
          { response_delete_range: { header, deleted: 1 } },
        ],
      }),
    );
    expect(response.succeeded).toBe(true);
    expect(response.header.revision).toBe('9007199254740991');
    expect(response.responses).toHaveLength(4);
    expectKv(response.responses[0]?.response_range.kvs[0], 'k', 'v', 8);
    expect(response.responses[1]?.response_range.kvs).toEqual([]);
    expect(response.responses[2]?.response_put.header.cluster_id).toBe(big);
    expect(response.responses[3]?.response_delete_range.header.revision).toBe('9007199254740991');
    expect(
      decodeTxnResponse(pbWrite('etcdserverpb.TxnResponse', { header, succeeded: false }))
        .succeeded,
    ).toBe(false);
  });

  it('decodes watch responses: events with previous values, creation, cancellation', () => {
    const events = decodeWatchResponse(
      pbWrite('etcdserverpb.WatchResponse', {
        header,
        watch_id: 3,
        events: [
          { type: 'Put', kv: kv('/w/1', 'new', 20), prev_kv: kv('/w/1', 'old', 19) },
          { type: 'Delete', kv: { key: b('/w/2'), mod_revision: 20 } },
        ],
      }),
    );
    expect(events.watchId).toBe(3);
    expect(events.created).toBe(false);
    expect(events.events).toHaveLength(2);
    expect(events.events[0]?.type).toBe('Put');
    expectKv(events.events[0]?.kv, '/w/1', 'new', 20);
    expectKv(events.events[0]?.prev_kv, '/w/1', 'old', 19);
    expect(events.events[1]?.type).toBe('Delete');
    expect(events.events[1]?.kv.key.toString()).toBe('/w/2');
    expect(events.events[1]?.kv.mod_revision).toBe('20');
    expect(events.events[1]?.prev_kv).toBeUndefined();

    const created = decodeWatchResponse(
      pbWrite('etcdserverpb.WatchResponse', { header, watch_id: 0, created: true }),
    );
    expect(created).toMatchObject({ watchId: 0, created: true, canceled: false, events: [] });

    const canceled = decodeWatchResponse(
      pbWrite('etcdserverpb.WatchResponse', {
        header,
        watch_id: 5,
        canceled: true,
        compact_revision: 1234,
        cancel_reason: 'mvcc: required revision has been compacted',
      }),
    );
    expect(canceled).toMatchObject({
      watchId: 5,
      canceled: true,
      compactRevision: 1234,
      cancelReason: 'mvcc: required revision has been compacted',
    });

    const refused = decodeWatchResponse(
      pbWrite('etcdserverpb.WatchResponse', {
        header,
        watch_id: -1,
        created: true,
        canceled: true,
      }),
    );
    expect(refused.watchId).toBe(-1);
  });

  it('skips fields it does not read, of every wire type', () => {
    // A KeyValue with unknown fields of each wire type around the ones read.
    const writer = new ProtoWriter(8);
    writer.uint(99, 5).bytes(1, b('key')).fork(98).bytes(1, b('nested')).close().uint(3, 7);
    const extra = Buffer.concat([
      writer.finish(),
      Buffer.from([(15 << 3) | 1, 1, 2, 3, 4, 5, 6, 7, 8, (14 << 3) | 5, 9, 9, 9, 9]),
    ]);
    const response = decodeRangeResponse(
      Buffer.concat([Buffer.from([(2 << 3) | 2, extra.length]), extra]),
    );
    expect(response.kvs[0]?.key.toString()).toBe('key');
    expect(response.kvs[0]?.mod_revision).toBe('7');
  });

  it('fails on a message cut short rather than reading past it', () => {
    const whole = pbWrite('etcdserverpb.RangeResponse', { header, kvs: [kv('k', 'value', 1)] });
    expect(() => decodeRangeResponse(whole.subarray(0, whole.length - 3))).toThrow(RangeError);
    expect(() => new ProtoReader(Buffer.from([0x80])).varint()).toThrow(RangeError);
  });
});
