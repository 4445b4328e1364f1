import { describe, expect, it } from 'vitest';
import type { Kind } from '../../src/engine/resource/pointer.js';
import { newResource, type Resource } from '../../src/engine/resource/resource.js';
import { KeyLayout } from '../../src/state-etcd/key-layout.js';
import { WatchedReads, type WatchedSource } from '../../src/state-etcd/watched-reads.js';
import { WatchedValueMap } from '../../src/state-etcd/watched-values.js';
import {
  labelEqual,
  labelExists,
  labelIn,
  labelQuery,
} from '../../src/engine/resource/label-query.js';

const layout = new KeyLayout('/unit');
const KIND: Kind = { namespace: 'lab', type: 'VMs.unit.cosi.dev' };
const key = (id: string): string => layout.resourceKey({ ...KIND, id });
const vm = (id: string, version: number): Resource => {
  const resource = newResource({ ...KIND, id }, {});
  return { ...resource, metadata: { ...resource.metadata, version } };
};

/** A watch's values at a revision the test moves; `ended` as a watch that stopped. */
function source(revision: number): WatchedSource & { at: number | undefined } {
  const values = new WatchedValueMap();
  const made = {
    values,
    at: revision as number | undefined,
    revision: () => made.at,
  };
  return made;
}

describe('reads from the watches: when a watch answers and when etcd must', () => {
  it('answers from the newest watch at or past the floor, and the floor only rises', () => {
    const reads = new WatchedReads(layout);
    const slow = source(10);
    slow.values.set(key('x'), vm('x', 1));
    reads.add(KIND, slow);
    expect(reads.get(KIND, key('x'))?.found?.metadata.version).toBe(1);
    // This state wrote (or read from etcd) the type at 12: the watch at 10 is too old.
    reads.saw(KIND.type, 12);
    expect(reads.get(KIND, key('x'))).toBeUndefined();
    expect(reads.list(KIND, {})).toBeUndefined();
    slow.at = 12;
    slow.values.set(key('x'), vm('x', 2));
    expect(reads.get(KIND, key('x'))?.found?.metadata.version).toBe(2);
    // A second watch further on answers; when it ends, the first (behind what was answered) may
    // not: a read would go back in time.
    const fast = source(15);
    fast.values.set(key('x'), vm('x', 3));
    reads.add(KIND, fast);
    expect(reads.get(KIND, key('x'))?.found?.metadata.version).toBe(3);
    fast.at = undefined;
    expect(reads.get(KIND, key('x'))).toBeUndefined();
    slow.at = 15;
    expect(reads.get(KIND, key('x'))?.found?.metadata.version).toBe(2);
  });

  it('a get asks etcd when this state has seen a newer value of the key', () => {
    const reads = new WatchedReads(layout);
    const watch = source(10);
    watch.values.set(key('x'), vm('x', 1));
    reads.add(KIND, watch);
    expect(reads.get(KIND, key('x'), 11)).toBeUndefined();
    expect(reads.get(KIND, key('x'), 10)?.found?.metadata.version).toBe(1);
    expect(reads.get(KIND, key('missing'))?.found).toBeNull();
  });

  it('a list is sorted by id and filtered, and a watch of every namespace serves one', () => {
    const reads = new WatchedReads(layout);
    const all = source(5);
    for (const [namespace, id] of [
      ['b', 'z'],
      ['a', 'y'],
      ['b', 'a'],
    ] as const) {
      const resource = newResource({ namespace, type: KIND.type, id }, {});
      all.values.set(layout.resourceKey(resource.metadata), resource);
    }
    reads.add({ namespace: '*', type: KIND.type }, all);
    const names = (list: Resource[] | undefined): string[] =>
      (list ?? []).map((r) => `${r.metadata.namespace}/${r.metadata.id}`);
    expect(names(reads.list({ namespace: '*', type: KIND.type }, {})?.found)).toEqual([
      'a/y',
      'b/a',
      'b/z',
    ]);
    expect(names(reads.list({ namespace: 'b', type: KIND.type }, {})?.found)).toEqual([
      'b/a',
      'b/z',
    ]);
    expect(
      names(reads.list({ namespace: 'b', type: KIND.type }, { idQuery: { regexp: /^z/ } })?.found),
    ).toEqual(['b/z']);
  });

  it('a list by a label value reads only the values that have it, kept up to date by each change', () => {
    const reads = new WatchedReads(layout);
    const watch = source(5);
    /** Resources on other hosts: a list of one host's that read them would throw. */
    let readElsewhere = 0;
    const placed = (id: string, host: string, guarded: boolean): Resource => {
      const resource = newResource({ ...KIND, id }, {});
      const labels = { host };
      const metadata = { ...resource.metadata };
      Object.defineProperty(metadata, 'labels', {
        enumerable: true,
        get: () => {
          if (guarded && !indexing) readElsewhere++;
          return labels;
        },
      });
      return { ...resource, metadata };
    };
    let indexing = true;
    for (let i = 0; i < 50; i++)
      watch.values.set(key(`other-${i}`), placed(`other-${i}`, 'h2', true));
    watch.values.set(key('a'), placed('a', 'h1', false));
    watch.values.set(key('b'), placed('b', 'h1', false));
    // Moved off h1, and deleted: the index follows.
    watch.values.set(key('b'), placed('b', 'h3', false));
    watch.values.set(key('c'), placed('c', 'h1', false));
    watch.values.delete(key('c'));
    reads.add(KIND, watch);
    indexing = false;
    const ids = (query: Parameters<typeof reads.list>[1]): string[] =>
      (reads.list(KIND, query)?.found ?? []).map((r) => r.metadata.id);
    expect(ids({ labelQueries: [labelQuery(labelEqual('host', 'h1'))] })).toEqual(['a']);
    expect(ids({ labelQueries: [labelQuery(labelIn('host', ['h1', 'h3']))] })).toEqual(['a', 'b']);
    expect(
      ids({
        labelQueries: [labelQuery(labelEqual('host', 'h3')), labelQuery(labelEqual('host', 'h1'))],
      }),
    ).toEqual(['a', 'b']);
    expect(ids({ labelQueries: [labelQuery(labelEqual('host', 'h9'))] })).toEqual([]);
    expect(readElsewhere).toBe(0);
    // A query with no equality term reads every value, as before.
    expect(ids({ labelQueries: [labelQuery(labelExists('host'))] })).toHaveLength(52);
    expect(readElsewhere).toBeGreaterThan(0);
  });
});
