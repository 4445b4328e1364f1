import { describe, expect, it } from 'vitest';
import { freezeResource, newResource } from '../../../src/engine/resource/resource.js';
import { rowCells } from '../../../src/cli/ui/resource-cells.js';
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
});
