/**
 * cosi's watch stream (lean-watch.ts) against a fake gRPC stream that answers as etcd's server
 * does: creations answered in the order written, each watch's events by its id, a cancelled
 * watch's events dropped, a broken stream opened again with every watch created again from where
 * it was moved to, and a watch etcd ends told as an error.
 */
import { EventEmitter } from 'node:events';
import type { IKeyValue } from 'etcd3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProtoReader } from '../../src/state-etcd/protobuf-wire.js';
import type { WireWatchResponse } from '../../src/state-etcd/etcd-wire.js';
import { LeanWatchStream, type OpenStream } from '../../src/state-etcd/lean-watch.js';

/** A watch request as written, decoded by hand: a creation's key and start, or a cancel's id. */
type Written = { create: { key: string; start: number } } | { cancel: number };

function readRequest(bytes: Buffer): Written {
  const outer = new ProtoReader(bytes);
  const tag = outer.tag();
  const inner = outer.nested();
  if (tag >>> 3 === 2) {
    // proto3 leaves out a 0 id: an empty cancel is of watch 0.
    if (!inner.more) return { cancel: 0 };
    inner.tag();
    return { cancel: inner.varint() };
  }
  let key = '';
  let start = 0;
  while (inner.more) {
    const field = inner.tag();
    if (field >>> 3 === 1) key = inner.bytes().toString();
    else if (field >>> 3 === 3) start = inner.varint();
    else inner.skip(field & 7);
  }
  return { create: { key, start } };
}

class FakeStream extends EventEmitter {
  readonly written: Written[] = [];
  cancelled = false;

  write(bytes: Buffer): boolean {
    this.written.push(readRequest(bytes));
    return true;
  }

  cancel(): void {
    this.cancelled = true;
  }

  answer(response: Partial<WireWatchResponse>): void {
    this.emit('data', {
      header: { cluster_id: '1', member_id: '1', revision: '1', raft_term: '1' },
      watchId: 0,
      created: false,
      canceled: false,
      compactRevision: 0,
      cancelReason: '',
      events: [],
      ...response,
    });
  }
}

const kv = (key: string, revision: number): IKeyValue => ({
  key: Buffer.from(key),
  value: Buffer.from('v'),
  create_revision: '1',
  mod_revision: String(revision),
  version: '1',
  lease: '0',
});

function setup(): { streams: FakeStream[]; watches: LeanWatchStream } {
  const streams: FakeStream[] = [];
  const open = (() => {
    const stream = new FakeStream();
    streams.push(stream);
    return stream;
  }) as unknown as OpenStream;
  return { streams, watches: new LeanWatchStream(open) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('LeanWatchStream', () => {
  it('gives each watch the id of its creation, in order, and its events only', () => {
    const { streams, watches } = setup();
    const a = watches.watch({ key: Buffer.from('/a'), prevKv: false }, 5);
    const b = watches.watch({ key: Buffer.from('/b'), prevKv: false }, 7);
    const stream = streams[0] as FakeStream;
    expect(streams).toHaveLength(1);
    expect(stream.written).toEqual([
      { create: { key: '/a', start: 5 } },
      { create: { key: '/b', start: 7 } },
    ]);
    const seen: string[] = [];
    for (const [name, watcher] of [
      ['a', a],
      ['b', b],
    ] as const) {
      watcher.on('connected', () => seen.push(`${name} connected`));
      watcher.on('put', (k: IKeyValue) => seen.push(`${name} put ${k.key.toString()}`));
      watcher.on('delete', (k: IKeyValue) => seen.push(`${name} delete ${k.key.toString()}`));
      watcher.on('data', () => seen.push(`${name} data`));
    }
    stream.answer({ created: true, watchId: 10 });
    stream.answer({ created: true, watchId: 11 });
    stream.answer({
      watchId: 11,
      events: [
        { type: 'Put', kv: kv('/b', 8), prev_kv: undefined },
        { type: 'Delete', kv: kv('/b', 9), prev_kv: undefined },
      ],
    });
    stream.answer({ watchId: 10, events: [{ type: 'Put', kv: kv('/a', 9), prev_kv: undefined }] });
    expect(seen).toEqual([
      'a connected',
      'b connected',
      'b put /b',
      'b delete /b',
      'b data',
      'a put /a',
      'a data',
    ]);
    expect(a.id).toBe(10);
    expect(b.id).toBe(11);
  });

  it('cancels on etcd a watch cancelled here, before or after its creation was answered', () => {
    const { streams, watches } = setup();
    const a = watches.watch({ key: Buffer.from('/a'), prevKv: false }, 1);
    const b = watches.watch({ key: Buffer.from('/b'), prevKv: false }, 1);
    const stream = streams[0] as FakeStream;
    const events: string[] = [];
    a.on('put', () => events.push('a'));
    stream.answer({ created: true, watchId: 0 });
    void b.cancel(); // Its creation is under way: cancelled once etcd answers it.
    stream.answer({ created: true, watchId: 1 });
    void a.cancel();
    stream.answer({ watchId: 0, events: [{ type: 'Put', kv: kv('/a', 2), prev_kv: undefined }] });
    expect(stream.written.slice(2)).toEqual([{ cancel: 1 }, { cancel: 0 }]);
    expect(events).toEqual([]);
  });

  it('opens a broken stream again after a backoff, each watch created from where it was moved', () => {
    vi.useFakeTimers();
    const { streams, watches } = setup();
    const a = watches.watch({ key: Buffer.from('/a'), prevKv: true }, 3);
    const first = streams[0] as FakeStream;
    first.answer({ created: true, watchId: 0 });
    const heard: string[] = [];
    a.on('disconnected', (error: Error) => {
      heard.push(`disconnected: ${error.message}`);
      // As EtcdWatch does: resume after the last change it handed on.
      a.request.start_revision = '42';
    });
    a.on('connected', () => heard.push('connected'));
    first.emit('error', Object.assign(new Error('14 UNAVAILABLE: read ECONNRESET'), { code: 14 }));
    expect(first.cancelled).toBe(true);
    expect(a.id).toBeNull();
    expect(streams).toHaveLength(1);
    vi.advanceTimersByTime(100);
    expect(streams).toHaveLength(2);
    const second = streams[1] as FakeStream;
    expect(second.written).toEqual([{ create: { key: '/a', start: 42 } }]);
    // The old stream's late answers are not the new one's.
    first.answer({ created: true, watchId: 9 });
    second.answer({ created: true, watchId: 0 });
    expect(heard).toEqual(['disconnected: 14 UNAVAILABLE: read ECONNRESET', 'connected']);
    watches.close();
    expect(second.cancelled).toBe(true);
  });

  it('tells a watch etcd ended (its start compacted away) as an error naming why', () => {
    const { streams, watches } = setup();
    const a = watches.watch({ key: Buffer.from('/a'), prevKv: false }, 1);
    const stream = streams[0] as FakeStream;
    const errors: string[] = [];
    a.on('error', (error: Error) => errors.push(error.message));
    stream.answer({ created: true, watchId: 4 });
    stream.answer({
      watchId: 4,
      canceled: true,
      compactRevision: 50,
      cancelReason: 'etcdserver: mvcc: required revision has been compacted',
    });
    expect(errors).toEqual([
      expect.stringMatching(/Watcher canceled: .*required revision has been compacted/),
    ]);
    expect(a.id).toBeNull();
  });
});
