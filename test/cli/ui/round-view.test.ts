import { writeFile } from 'node:fs/promises';
import { pointerKey } from '../../../src/engine/resource/pointer.js';
import { afterEach, describe, expect, it } from 'vitest';
import { rowCells, columnHeaders } from '../../../src/cli/ui/resource-cells.js';
import type { RoundView } from '../../../src/cli/ui/round-view.js';
import { watchCopy, type WatchedCopy } from './watch-rounds.js';

let watched: WatchedCopy | undefined;
afterEach(async () => {
  await watched?.close();
  watched = undefined;
});

const markers = (view: RoundView | undefined) =>
  Object.fromEntries(
    (view?.groups ?? []).flatMap((g) =>
      g.rows
        .filter((r) => r.marker !== ' ')
        .map((r) => [`${g.displayType}/${r.resource.metadata.id}`, r.marker]),
    ),
  );

describe('round views', () => {
  it('mark everything created in the first round, and count it', async () => {
    watched = await watchCopy();
    const [first] = watched.views;
    expect(first?.status).toBe('converged');
    expect(first?.counts).toEqual({ created: 13, updated: 0, destroyed: 0 });
    expect(first?.groups.map((g) => g.displayType)).toEqual([
      'HostStatus',
      'Host',
      'NetworkConfig',
      'Placement',
      'VM',
    ]);
    expect(Object.values(markers(first)).every((m) => m === '+')).toBe(true);
  });

  it('mark what an edit updated, by version, and the cells that changed', async () => {
    watched = await watchCopy();
    const view = await watched.edit('vms.yaml', 'image: postgres', 'image: mariadb');
    expect(markers(view)).toEqual({ 'NetworkConfig/db-1': '~', 'VM/db-1': '~' });
    expect(view.counts).toEqual({ created: 0, updated: 2, destroyed: 0 });
    const vms = view.groups.find((g) => g.displayType === 'VM')!;
    const row = vms.rows.find((r) => r.resource.metadata.id === 'db-1')!;
    const { cells, changed } = rowCells(vms, row);
    const headers = columnHeaders(vms);
    expect([...changed].map((i) => headers[i])).toEqual(['VERSION', 'IMAGE']);
    expect(cells[headers.indexOf('IMAGE')]).toBe('mariadb');
  });

  it('mark what a deleted file destroyed, with the resource as it was', async () => {
    watched = await watchCopy({
      before: async (dir) => {
        await writeFile(
          `${dir}/extra.yaml`,
          'metadata: {type: vm, id: extra-1}\nspec: {cpus: 1, image: alpine, host: node-b}\n',
        );
      },
    });
    const view = await watched.remove('extra.yaml');
    expect(markers(view)).toMatchObject({
      'VM/extra-1': '-',
      'NetworkConfig/extra-1': '-',
      'Placement/extra-1': '-',
    });
    expect(view.counts.destroyed).toBe(3);
    expect(view.writes.get(vmKey('extra-1'))?.map((w) => [w.round, w.marker])).toEqual([
      [1, '+'],
      [2, '-'],
    ]);
  });

  it('after an invalid edit keep the last good state, unmarked, and say so', async () => {
    watched = await watchCopy();
    const view = await watched.edit('vms.yaml', 'cpus: 6', 'cpus: 0');
    expect(view.status).toBe('not-applied');
    expect(view.lastGoodRunning).toBe(true);
    expect(view.findings.map((f) => f.code)).toEqual(['schema-violation']);
    expect(view.resources).toBe(13);
    expect(markers(view)).toEqual({});
  });

  it('after a restart mark only what differs from the state before it', async () => {
    watched = await watchCopy();
    const view = await watched.edit(
      'cosi.config.ts',
      'controllers: [createVMNetController(), createPlacementController()]',
      'controllers: [createVMNetController()]',
    );
    expect(view.trigger).toBe('restart');
    expect(view.changed).toEqual(['cosi.config.ts']);
    // Without placements, node-a's status no longer counts the VMs placed on it.
    expect(markers(view)).toEqual({
      'HostStatus/node-a': '~',
      'Placement/db-1': '-',
      'Placement/web-1': '-',
      'Placement/web-2': '-',
    });
  });

  it('keep the last writes of each resource across rounds', async () => {
    watched = await watchCopy();
    await watched.edit('vms.yaml', 'image: postgres', 'image: mariadb');
    const view = await watched.edit('vms.yaml', 'image: mariadb', 'image: alpine');
    const writes = view.writes.get(vmKey('db-1'));
    expect(writes?.map((w) => [w.round, w.marker])).toEqual([
      [1, '+'],
      [2, '~'],
      [3, '~'],
    ]);
  });

  it('name a type whose definition went with its last resource, on the round that destroys it', async () => {
    watched = await watchCopy({
      before: async (dir) => {
        await writeFile(
          `${dir}/gadgets.yaml`,
          [
            'apiVersion: apiextensions.k8s.io/v1',
            'kind: CustomResourceDefinition',
            'metadata: {name: gadgets.example.org}',
            'spec:',
            '  group: example.org',
            '  names: {kind: Gadget, plural: gadgets}',
            '  scope: Namespaced',
            '  versions:',
            '    - name: v1',
            '      served: true',
            '      storage: true',
            '      additionalPrinterColumns:',
            '        - {name: Color, type: string, jsonPath: .spec.color}',
            '      schema:',
            '        openAPIV3Schema:',
            '          type: object',
            '          properties:',
            '            spec: {type: object, properties: {color: {type: string}}}',
            '---',
            'apiVersion: example.org/v1',
            'kind: Gadget',
            'metadata: {name: g1, namespace: default}',
            'spec: {color: red}',
            '',
          ].join('\n'),
        );
      },
    });
    const title = (view: RoundView | undefined) => {
      const group = view?.groups.find((g) => g.type === 'Gadgets.example.org');
      return group && { displayType: group.displayType, headers: columnHeaders(group) };
    };
    const first = title(watched.views[0]);
    expect(first?.displayType).toBe('Gadget');
    expect(first?.headers).toContain('COLOR');
    const removed = await watched.remove('gadgets.yaml');
    expect(markers(removed)).toEqual({ 'Gadget/g1': '-' });
    expect(title(removed)).toEqual(first);
  });
});

function vmKey(id: string): string {
  return pointerKey({ namespace: 'default', type: 'VMs.example.org', id });
}
