import { describe, expect, it } from 'vitest';
import { freezeResource, newResource } from '../../../src/engine/resource/resource.js';
import { columnHeaders, rowCells } from '../../../src/cli/ui/resource-cells.js';
import type { TypeGroup } from '../../../src/cli/ui/round-view.js';

describe('the watch view’s print columns', () => {
  it('show a filter column, and an empty cell where a field is missing, as the table does', () => {
    const backup = (spec: Record<string, unknown>) =>
      freezeResource(
        newResource({ namespace: 'default', type: 'Backups.example.org', id: 'b' }, spec),
      );
    const group = (spec: Record<string, unknown>): TypeGroup => ({
      type: 'Backups.example.org',
      displayType: 'Backup',
      names: ['backups.example.org'],
      columns: [{ name: 'Ready', jsonPath: '{.status.conditions[?(@.type=="Ready")].status}' }],
      sensitive: false,
      rows: [{ marker: ' ', resource: backup(spec) }],
    });
    const ready = (spec: Record<string, unknown>) => {
      const g = group(spec);
      return rowCells(g, g.rows[0]!).cells.at(-1);
    };
    expect(ready({ status: { conditions: [{ type: 'Ready', status: 'True' }] } })).toBe('True');
    expect(ready({ spec: {} })).toBe('');
  });

  it("show a built-in kind's columns as the table does: the API server's defaults, kubectl's cells", () => {
    const service = freezeResource(
      newResource(
        { namespace: 'default', type: 'Services.core', id: 'web' },
        { spec: { ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }] } },
      ),
    );
    const group: TypeGroup = {
      type: 'Services.core',
      displayType: 'Service',
      names: ['services.core'],
      columns: [
        { name: 'Service-Type', jsonPath: '{.spec.type}' },
        { name: 'Ports', jsonPath: '{.spec.ports[*].port}' },
      ],
      kind: { apiVersion: 'v1', kind: 'Service', namespaced: true },
      sensitive: false,
      rows: [{ marker: ' ', resource: service }],
    };
    expect(rowCells(group, group.rows[0]!).cells.slice(-2)).toEqual(['ClusterIP', '80/TCP,53/UDP']);
  });

  it('leave out NAMESPACE for a cluster-scoped kind, as kubectl and cosi get do', () => {
    const volume = freezeResource(
      newResource(
        { namespace: 'default', type: 'PersistentVolumes.core', id: 'my-model-pv' },
        { spec: { capacity: { storage: '1Gi' } } },
      ),
    );
    const group: TypeGroup = {
      type: 'PersistentVolumes.core',
      displayType: 'PersistentVolume',
      names: ['persistentvolumes.core'],
      columns: [],
      kind: { apiVersion: 'v1', kind: 'PersistentVolume', namespaced: false },
      sensitive: false,
      rows: [{ marker: ' ', resource: volume }],
    };
    expect(columnHeaders(group)).toEqual(['ID', 'VERSION', 'OWNER', 'PHASE']);
    expect(rowCells(group, group.rows[0]!).cells).toEqual(['my-model-pv', '0', '', 'running']);
    // A namespaced kind keeps it.
    const claim = {
      ...group,
      kind: { ...group.kind!, kind: 'PersistentVolumeClaim', namespaced: true },
    };
    expect(columnHeaders(claim)[0]).toBe('NAMESPACE');
    expect(rowCells(claim, claim.rows[0]!).cells[0]).toBe('default');
  });
});
