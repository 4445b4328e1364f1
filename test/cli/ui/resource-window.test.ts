import { describe, expect, it } from 'vitest';
import { freezeResource, newResource } from '../../../src/engine/resource/resource.js';
import { visibleLines } from '../../../src/cli/ui/resource-window.js';
import type { TypeGroup } from '../../../src/cli/ui/round-view.js';

function group(type: string, count: number): TypeGroup {
  return {
    type,
    displayType: type.split('.')[0] ?? type,
    names: [type.toLowerCase()],
    columns: [],
    sensitive: false,
    rows: Array.from({ length: count }, (_, i) => ({
      marker: ' ' as const,
      resource: freezeResource(
        newResource({ namespace: 'default', type, id: `r-${String(i).padStart(3, '0')}` }, {}),
      ),
    })),
  };
}

const shown = (lines: ReturnType<typeof visibleLines>) =>
  lines.map((l) =>
    l.kind === 'row'
      ? `${l.group.displayType}/${l.row.resource.metadata.id}`
      : `${l.kind} ${l.group.displayType}`,
  );

describe('the resource window', () => {
  const groups = [group('Hosts.example.org', 40), group('VMs.example.org', 40)];

  it('keeps the title and column headers of the type it scrolled into on its first lines', () => {
    const lines = shown(visibleLines(groups, { group: 0, row: 25 }, 10));
    expect(lines.slice(0, 2)).toEqual(['type Hosts', 'columns Hosts']);
    expect(lines).toContain('Hosts/r-025');
    expect(lines).toHaveLength(10);
  });

  it('pins the type whose rows are at the top, across a type boundary', () => {
    const lines = shown(visibleLines(groups, { group: 1, row: 3 }, 10));
    expect(lines.slice(0, 2)).toEqual(['type VMs', 'columns VMs']);
    expect(lines).toContain('VMs/r-003');
  });

  it('pins only the title in a window of 2 or 3 lines, and keeps the selection', () => {
    const lines = shown(visibleLines(groups, { group: 0, row: 25 }, 3));
    expect(lines[0]).toBe('type Hosts');
    expect(lines).toContain('Hosts/r-025');
  });

  it('shows the list as it is from its start', () => {
    const lines = shown(visibleLines(groups, { group: 0, row: 0 }, 5));
    expect(lines).toEqual([
      'type Hosts',
      'columns Hosts',
      'Hosts/r-000',
      'Hosts/r-001',
      'Hosts/r-002',
    ]);
  });
});
