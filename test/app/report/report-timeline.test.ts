import { describe, expect, it } from 'vitest';
import { RunRecord } from '../../../src/engine/record/run-record.js';
import { MAX_TIMELINE, reportTimeline } from '../../../src/app/report/report-timeline.js';

const VM = { namespace: 'default', type: 'VMs.example.org', id: 'web-1' };

describe("the report's timeline", () => {
  it('lists each reconcile with its time from the first, its item, outcome and writes', () => {
    let now = 1_000;
    const record = new RunRecord({ now: () => now });
    const first = record.start('Placer', 'reconcile', VM, []);
    record.wrote(first, 'create', { ...VM, type: 'Placements.example.org' }, 1);
    record.end(first, { kind: 'ok' });
    now = 1_250;
    const second = record.start('Placer', 'reconcile', VM, []);
    record.end(second, { kind: 'error', message: 'no host fits' });
    expect(reportTimeline(record)).toEqual({
      dropped: 0,
      reconciles: 2,
      mappings: 0,
      entries: [
        {
          seq: first,
          controller: 'Placer',
          at: 0,
          item: 'default/VMs.example.org/web-1',
          outcome: 'ok',
          writes: 1,
        },
        {
          seq: second,
          controller: 'Placer',
          at: 250,
          item: 'default/VMs.example.org/web-1',
          outcome: 'error',
          error: 'no host fits',
          writes: 0,
        },
      ],
    });
  });

  it('marks a mapping of a changed input to items, and counts it apart from the reconciles', () => {
    const record = new RunRecord();
    const map = record.start('Placer', 'map', { ...VM, type: 'Hosts.example.org' }, []);
    record.end(map, { kind: 'ok' });
    record.end(record.start('Placer', 'reconcile', VM, []), { kind: 'ok' });
    const timeline = reportTimeline(record);
    expect(timeline.entries.map((e) => e.mapping)).toEqual(['map', undefined]);
    expect([timeline.reconciles, timeline.mappings]).toEqual([1, 1]);
  });

  it('keeps the newest reconciles and counts the others it leaves out', () => {
    const record = new RunRecord();
    const total = MAX_TIMELINE + 25;
    for (let i = 0; i < total; i++) {
      record.end(record.start('Loop', 'run', undefined, []), { kind: 'ok' });
    }
    const timeline = reportTimeline(record);
    expect(timeline.entries).toHaveLength(MAX_TIMELINE);
    expect(timeline.dropped).toBe(25);
    expect(timeline.entries[0]?.seq).toBe(26);
    expect(timeline.entries.at(-1)?.seq).toBe(total);
  });

  it('counts the reconciles the record itself dropped', () => {
    const record = new RunRecord({ maxReconciles: 100 });
    for (let i = 0; i < 150; i++) {
      record.end(record.start('Loop', 'run', undefined, []), { kind: 'ok' });
    }
    const timeline = reportTimeline(record);
    expect(timeline.dropped).toBeGreaterThanOrEqual(50);
    expect(timeline.entries.length + timeline.dropped).toBe(150);
    expect(timeline.entries[0]?.seq).toBe(timeline.dropped + 1);
  });
});
