/**
 * Watch rounds cross from the worker thread to the screen against the round before: what the
 * previous round sent is not sent again, and the screen rebuilds each round exactly.
 */
import { describe, expect, it } from 'vitest';
import type { Resource } from '../../../src/engine/resource/resource.js';
import type { ResourceRow } from '../../../src/cli/ui/resource-row.js';
import type { RoundView, TypeGroup } from '../../../src/cli/ui/round-view.js';
import { rowCells } from '../../../src/cli/ui/resource-cells.js';
import { filterGroups } from '../../../src/cli/ui/resource-filter.js';
import type { RowColumns } from '../../../src/cli/ui/row-columns.js';
import {
  createRoundViewDecoder,
  createRoundViewEncoder,
  type RoundViewTransfer,
} from '../../../src/cli/ui/round-view-transfer.js';

const row = (type: string, id: string, version = 1): ResourceRow => ({
  marker: ' ',
  resource: {
    metadata: { namespace: 'default', type, id, version, owner: '', phase: 'running' },
    spec: { id },
  } as unknown as Resource,
});

const group = (type: string, rows: readonly ResourceRow[]): TypeGroup => ({
  type,
  displayType: type,
  names: [type.toLowerCase()],
  columns: [],
  sensitive: false,
  rows,
});

const view = (number: number, groups: readonly TypeGroup[]): RoundView => ({
  number,
  trigger: number === 1 ? 'start' : 'manifests',
  changed: [],
  files: 1,
  status: 'converged',
  counts: { created: 0, updated: 0, destroyed: 0 },
  resources: groups.reduce((n, g) => n + g.rows.length, 0),
  cost: { read: 0, parsed: 0 },
  findings: [],
  lastGoodRunning: false,
  groups,
  controllers: [],
  writes: new Map([['k', []]]),
  record: {} as never,
  graph: {} as never,
  manifest: () => undefined,
});

/** As a message carries it: a structured clone. */
const cross = (transfer: RoundViewTransfer): RoundViewTransfer => structuredClone(transfer);

describe('watch rounds sent to the screen', () => {
  it('sends only the rows the previous round did not, and rebuilds every round exactly', () => {
    const encode = createRoundViewEncoder();
    const decode = createRoundViewDecoder();
    const vms = group('VMs', [row('VMs', 'a'), row('VMs', 'b'), row('VMs', 'c')]);
    const hosts = group('Hosts', [row('Hosts', 'h')]);
    const first = encode(view(1, [hosts, vms]));
    const shown1 = decode(cross(first));
    expect(shown1.groups.map((g) => g.rows.map((r) => r.resource.metadata.id))).toEqual([
      ['h'],
      ['a', 'b', 'c'],
    ]);

    // b updated, c destroyed, d created; the hosts untouched (the same group object).
    const [a] = vms.rows;
    const vms2 = group('VMs', [a as ResourceRow, row('VMs', 'b', 2), row('VMs', 'd')]);
    const second = encode(view(2, [hosts, vms2]));
    expect(second.groups[0]).toEqual({ type: 'Hosts', same: true });
    const sent = second.groups[1] as { kept: Int32Array; added: RowColumns };
    expect([...sent.kept]).toEqual([0, -1, -1]);
    expect(sent.added.ids).toEqual(['b', 'd']);
    expect([...sent.added.versions]).toEqual([2, 1]);

    const shown2 = decode(cross(second));
    expect(
      shown2.groups.map((g) =>
        g.rows.map((r) => `${r.resource.metadata.id}@${r.resource.metadata.version}`),
      ),
    ).toEqual([['h@1'], ['a@1', 'b@2', 'd@1']]);
    // What was sent before is the screen's own object again: nothing rebuilt for it.
    expect(shown2.groups[0]).toBe(shown1.groups[0]);
    expect(shown2.groups[1]?.rows[0]).toBe(shown1.groups[1]?.rows[0]);
    expect(shown2.number).toBe(2);
  });

  it('leaves out what only the worker needs: the record, the graph, the manifests, the writes', () => {
    const transfer = createRoundViewEncoder()(view(1, []));
    for (const key of ['record', 'graph', 'manifest', 'writes', 'groups']) {
      expect(transfer.view).not.toHaveProperty(key);
    }
    expect(() => structuredClone(transfer)).not.toThrow();
  });

  it("sends of a row only what the screen shows: its cells, changed cells and the filter's answers are the same", () => {
    const full = (id: string, version: number, image: string): Resource =>
      ({
        metadata: {
          namespace: 'default',
          type: 'VMs',
          id,
          version,
          owner: 'Placer',
          phase: 'running',
          labels: { tier: 'web' },
          annotations: { note: 'x'.repeat(1000) },
          finalizers: ['keep'],
          ownerReferences: [{ type: 'Hosts', id: 'h' }],
          created: 1,
          updated: 2,
        },
        spec: { image, cpus: 2, big: 'y'.repeat(1000) },
      }) as unknown as Resource;
    const withColumns: TypeGroup = {
      ...group('VMs', [
        { marker: '~', resource: full('a', 2, 'nginx:2'), previous: full('a', 1, 'nginx:1') },
        { marker: '+', resource: full('b', 1, 'redis') },
      ]),
      columns: [{ name: 'Image', jsonPath: '{.image}' }],
    };
    const withoutColumns: TypeGroup = {
      ...group('Hosts', [
        { marker: '-', resource: full('h', 3, 'none'), previous: full('h', 2, 'none') },
      ]),
    };
    const shown = createRoundViewDecoder()(
      cross(createRoundViewEncoder()(view(1, [withColumns, withoutColumns]))),
    );
    const [vms, hosts] = shown.groups as [TypeGroup, TypeGroup];
    for (const [sent, kept] of [
      [vms, withColumns],
      [hosts, withoutColumns],
    ] as const) {
      expect(sent.rows.map((r) => rowCells(sent, r))).toEqual(
        kept.rows.map((r) => rowCells(kept, r)),
      );
    }
    expect(filterGroups(shown.groups, 'tier=web').map((g) => g.rows.length)).toEqual([2, 1]);
    // What the screen never reads stayed in the worker.
    const a = vms.rows[0] as ResourceRow;
    expect(Object.keys(a.resource.metadata).sort()).toEqual([
      'id',
      'labels',
      'namespace',
      'owner',
      'phase',
      'type',
      'version',
    ]);
    expect(a.previous?.metadata.version).toBe(1);
    expect(vms.rows[1]?.previous).toBeUndefined();
    // No print column reads a Host's spec, and a destroyed row's cells are its last version's.
    expect(hosts.rows[0]?.resource.spec).toBeUndefined();
    expect(hosts.rows[0]?.previous).toBeUndefined();
  });
});
