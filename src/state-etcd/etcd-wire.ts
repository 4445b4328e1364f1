import type {
  ICompare,
  IDeleteRangeRequest,
  IKeyValue,
  IPutRequest,
  IRangeRequest,
  IRangeResponse,
  IRequestOp,
  IResponseHeader,
  IResponseOp,
  ITxnRequest,
  ITxnResponse,
} from 'etcd3';
import { LENGTH_DELIMITED, ProtoReader, ProtoWriter } from './protobuf-wire.js';

/**
 * etcd's KV and Watch messages on the wire, for the calls cosi makes most (ranges, transactions,
 * the watch stream): encoded from, and decoded to, the shapes the `etcd3` client uses, so the
 * callers do not change. Decoding reads each key and value once, as a view of the reply (no
 * copy), and skips the fields cosi does not use. Field numbers are those of etcd's
 * api/etcdserverpb/rpc.proto and api/mvccpb/kv.proto (test/state-etcd/etcd-wire.test.ts checks
 * them against the protobufjs encoding of the `.proto` files etcd3 ships).
 */

const COMPARE_RESULT = { Equal: 0, Greater: 1, Less: 2, NotEqual: 3 } as const;
const COMPARE_TARGET = { Version: 0, Create: 1, Mod: 2, Value: 3, Lease: 4 } as const;
const SORT_ORDER = { None: 0, Ascend: 1, Descend: 2 } as const;
const SORT_TARGET = { Key: 0, Version: 1, Create: 2, Mod: 3, Value: 4 } as const;

function enumValue(names: Readonly<Record<string, number>>, value: string | number | undefined) {
  if (value === undefined) return 0;
  if (typeof value === 'number') return value;
  const n = names[value];
  if (n === undefined) throw new RangeError(`etcd: unknown enum value ${value}`);
  return n;
}

// Requests.

export function encodeRangeRequest(request: IRangeRequest): Buffer {
  const writer = new ProtoWriter(64 + (request.key?.length ?? 0) * 2);
  writeRange(writer, request);
  return writer.finish();
}

function writeRange(writer: ProtoWriter, request: IRangeRequest): void {
  writer
    .bytes(1, request.key)
    .bytes(2, request.range_end)
    .uint(3, request.limit)
    .uint(4, request.revision)
    .uint(5, enumValue(SORT_ORDER, request.sort_order))
    .uint(6, enumValue(SORT_TARGET, request.sort_target))
    .bool(7, request.serializable)
    .bool(8, request.keys_only)
    .bool(9, request.count_only)
    .uint(10, request.min_mod_revision)
    .uint(11, request.max_mod_revision)
    .uint(12, request.min_create_revision)
    .uint(13, request.max_create_revision);
}

function writePut(writer: ProtoWriter, put: IPutRequest): void {
  writer
    .bytes(1, put.key)
    .bytes(2, put.value)
    .uint(3, put.lease)
    .bool(4, put.prev_kv)
    .bool(5, put.ignore_value)
    .bool(6, put.ignore_lease);
}

function writeDeleteRange(writer: ProtoWriter, del: IDeleteRangeRequest): void {
  writer.bytes(1, del.key).bytes(2, del.range_end).bool(3, del.prev_kv);
}

function writeCompare(writer: ProtoWriter, compare: ICompare): void {
  writer
    .uint(1, enumValue(COMPARE_RESULT, compare.result))
    .uint(2, enumValue(COMPARE_TARGET, compare.target))
    .bytes(3, compare.key);
  // The target_union oneof: the member set is written even when 0 (create_revision 0: absent).
  if (compare.version !== undefined) writer.uintPresent(4, compare.version);
  else if (compare.create_revision !== undefined) writer.uintPresent(5, compare.create_revision);
  else if (compare.mod_revision !== undefined) writer.uintPresent(6, compare.mod_revision);
  else if (compare.value !== undefined) writer.bytesPresent(7, compare.value);
  else if (compare.lease !== undefined) writer.uintPresent(8, compare.lease);
  writer.bytes(64, compare.range_end);
}

function writeOp(writer: ProtoWriter, op: IRequestOp): void {
  if (op.request_range) {
    writer.fork(1);
    writeRange(writer, op.request_range);
  } else if (op.request_put) {
    writer.fork(2);
    writePut(writer, op.request_put);
  } else if (op.request_delete_range) {
    writer.fork(3);
    writeDeleteRange(writer, op.request_delete_range);
  } else if (op.request_txn) {
    writer.fork(4);
    writeTxn(writer, op.request_txn);
  } else {
    return;
  }
  writer.close();
}

function writeTxn(writer: ProtoWriter, request: ITxnRequest): void {
  for (const compare of request.compare ?? []) {
    writer.fork(1);
    writeCompare(writer, compare);
    writer.close();
  }
  for (const op of request.success ?? []) {
    writer.fork(2);
    writeOp(writer, op);
    writer.close();
  }
  for (const op of request.failure ?? []) {
    writer.fork(3);
    writeOp(writer, op);
    writer.close();
  }
}

export function encodeTxnRequest(request: ITxnRequest): Buffer {
  let size = 64;
  for (const op of request.success ?? []) {
    size += 32 + (op.request_put?.key?.length ?? 0) + (op.request_put?.value?.length ?? 0);
  }
  const writer = new ProtoWriter(size);
  writeTxn(writer, request);
  return writer.finish();
}

/** What cosi asks of a watch: a key or range, from a revision, with or without previous values. */
export interface WatchCreate {
  readonly key: Buffer;
  readonly rangeEnd?: Buffer;
  readonly startRevision: number;
  readonly prevKv: boolean;
}

/** A WatchRequest opening a watch (etcd gives it the next watch id on the stream). */
export function encodeWatchCreate(create: WatchCreate): Buffer {
  const writer = new ProtoWriter(64 + create.key.length * 2);
  writer
    .fork(1)
    .bytes(1, create.key)
    .bytes(2, create.rangeEnd)
    .uint(3, create.startRevision)
    .bool(6, create.prevKv)
    .close();
  return writer.finish();
}

/** A WatchRequest ending the watch `watchId`. */
export function encodeWatchCancel(watchId: number): Buffer {
  const writer = new ProtoWriter(16);
  writer.fork(2).uint(1, watchId).close();
  return writer.finish();
}

// Responses.

function readHeader(reader: ProtoReader): IResponseHeader {
  let clusterId = '0';
  let memberId = '0';
  let revision = 0;
  let raftTerm = 0;
  while (reader.more) {
    const tag = reader.tag();
    switch (tag) {
      case (1 << 3) | 0:
        clusterId = reader.uint64();
        break;
      case (2 << 3) | 0:
        memberId = reader.uint64();
        break;
      case (3 << 3) | 0:
        revision = reader.varint();
        break;
      case (4 << 3) | 0:
        raftTerm = reader.varint();
        break;
      default:
        reader.skip(tag & 7);
    }
  }
  return {
    cluster_id: clusterId,
    member_id: memberId,
    revision: String(revision),
    raft_term: String(raftTerm),
  };
}

const EMPTY = Buffer.alloc(0);

/** A KeyValue (kv.proto), its key and value views of the reply. */
export function readKeyValue(reader: ProtoReader): IKeyValue {
  let key: Buffer = EMPTY;
  let value: Buffer = EMPTY;
  let createRevision = 0;
  let modRevision = 0;
  let version = 0;
  let lease = 0;
  while (reader.more) {
    const tag = reader.tag();
    switch (tag) {
      case (1 << 3) | LENGTH_DELIMITED:
        key = reader.bytes();
        break;
      case (2 << 3) | 0:
        createRevision = reader.varint();
        break;
      case (3 << 3) | 0:
        modRevision = reader.varint();
        break;
      case (4 << 3) | 0:
        version = reader.varint();
        break;
      case (5 << 3) | LENGTH_DELIMITED:
        value = reader.bytes();
        break;
      case (6 << 3) | 0:
        lease = reader.varint();
        break;
      default:
        reader.skip(tag & 7);
    }
  }
  return {
    key,
    create_revision: String(createRevision),
    mod_revision: String(modRevision),
    version: String(version),
    value,
    lease: String(lease),
  };
}

const NO_HEADER: IResponseHeader = {
  cluster_id: '0',
  member_id: '0',
  revision: '0',
  raft_term: '0',
};

function readRangeResponse(reader: ProtoReader): IRangeResponse {
  let header = NO_HEADER;
  const kvs: IKeyValue[] = [];
  let more = false;
  let count = 0;
  while (reader.more) {
    const tag = reader.tag();
    switch (tag) {
      case (1 << 3) | LENGTH_DELIMITED:
        header = readHeader(reader.nested());
        break;
      case (2 << 3) | LENGTH_DELIMITED:
        kvs.push(readKeyValue(reader.nested()));
        break;
      case (3 << 3) | 0:
        more = reader.bool();
        break;
      case (4 << 3) | 0:
        count = reader.varint();
        break;
      default:
        reader.skip(tag & 7);
    }
  }
  return { header, kvs, more, count: String(count) };
}

export function decodeRangeResponse(buffer: Buffer): IRangeResponse {
  return readRangeResponse(new ProtoReader(buffer));
}

/** A PutResponse or DeleteRangeResponse: only the header is read (cosi asks no prev_kv). */
function readHeaderOnly(reader: ProtoReader): { header: IResponseHeader } {
  let header = NO_HEADER;
  while (reader.more) {
    const tag = reader.tag();
    if (tag === ((1 << 3) | LENGTH_DELIMITED)) header = readHeader(reader.nested());
    else reader.skip(tag & 7);
  }
  return { header };
}

function readResponseOp(reader: ProtoReader): IResponseOp {
  const op: Partial<Record<keyof IResponseOp, unknown>> = {};
  while (reader.more) {
    const tag = reader.tag();
    switch (tag) {
      case (1 << 3) | LENGTH_DELIMITED:
        op.response_range = readRangeResponse(reader.nested());
        break;
      case (2 << 3) | LENGTH_DELIMITED:
        op.response_put = readHeaderOnly(reader.nested());
        break;
      case (3 << 3) | LENGTH_DELIMITED:
        op.response_delete_range = readHeaderOnly(reader.nested());
        break;
      case (4 << 3) | LENGTH_DELIMITED:
        op.response_txn = readTxnResponse(reader.nested());
        break;
      default:
        reader.skip(tag & 7);
    }
  }
  // Only the member of the oneof etcd set is there, as with the etcd3 client.
  return op as IResponseOp;
}

function readTxnResponse(reader: ProtoReader): ITxnResponse {
  let header = NO_HEADER;
  let succeeded = false;
  const responses: IResponseOp[] = [];
  while (reader.more) {
    const tag = reader.tag();
    switch (tag) {
      case (1 << 3) | LENGTH_DELIMITED:
        header = readHeader(reader.nested());
        break;
      case (2 << 3) | 0:
        succeeded = reader.bool();
        break;
      case (3 << 3) | LENGTH_DELIMITED:
        responses.push(readResponseOp(reader.nested()));
        break;
      default:
        reader.skip(tag & 7);
    }
  }
  return { header, succeeded, responses };
}

export function decodeTxnResponse(buffer: Buffer): ITxnResponse {
  return readTxnResponse(new ProtoReader(buffer));
}

/** One event of a watch response. */
export interface WireEvent {
  readonly type: 'Put' | 'Delete';
  readonly kv: IKeyValue;
  readonly prev_kv: IKeyValue | undefined;
}

/** A WatchResponse, with the fields cosi reads. */
export interface WireWatchResponse {
  readonly header: IResponseHeader;
  readonly watchId: number;
  readonly created: boolean;
  readonly canceled: boolean;
  readonly compactRevision: number;
  readonly cancelReason: string;
  readonly events: WireEvent[];
}

function readEvent(reader: ProtoReader): WireEvent {
  let type: 'Put' | 'Delete' = 'Put';
  let kv: IKeyValue | undefined;
  let prev: IKeyValue | undefined;
  while (reader.more) {
    const tag = reader.tag();
    switch (tag) {
      case (1 << 3) | 0:
        type = reader.varint() === 1 ? 'Delete' : 'Put';
        break;
      case (2 << 3) | LENGTH_DELIMITED:
        kv = readKeyValue(reader.nested());
        break;
      case (3 << 3) | LENGTH_DELIMITED:
        prev = readKeyValue(reader.nested());
        break;
      default:
        reader.skip(tag & 7);
    }
  }
  return { type, kv: kv ?? readKeyValue(new ProtoReader(EMPTY)), prev_kv: prev };
}

export function decodeWatchResponse(buffer: Buffer): WireWatchResponse {
  const reader = new ProtoReader(buffer);
  let header = NO_HEADER;
  let watchId = 0;
  let created = false;
  let canceled = false;
  let compactRevision = 0;
  let cancelReason = '';
  const events: WireEvent[] = [];
  while (reader.more) {
    const tag = reader.tag();
    switch (tag) {
      case (1 << 3) | LENGTH_DELIMITED:
        header = readHeader(reader.nested());
        break;
      case (2 << 3) | 0:
        // An int64: -1 (a refused creation) comes as ten bytes, read here as 2^64 - 1.
        watchId = reader.varint();
        if (watchId > Number.MAX_SAFE_INTEGER) watchId = -1;
        break;
      case (3 << 3) | 0:
        created = reader.bool();
        break;
      case (4 << 3) | 0:
        canceled = reader.bool();
        break;
      case (5 << 3) | 0:
        compactRevision = reader.varint();
        break;
      case (6 << 3) | LENGTH_DELIMITED:
        cancelReason = reader.string();
        break;
      case (11 << 3) | LENGTH_DELIMITED:
        events.push(readEvent(reader.nested()));
        break;
      default:
        reader.skip(tag & 7);
    }
  }
  return { header, watchId, created, canceled, compactRevision, cancelReason, events };
}
