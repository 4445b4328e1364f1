import chalk from 'chalk';
import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import {
  freezeResource,
  newResource,
  type Resource,
} from '../../../src/engine/resource/resource.js';
import { ResourceList } from '../../../src/cli/ui/resource-list.js';
import { rowCells } from '../../../src/cli/ui/resource-cells.js';
import type { ResourceRow, TypeGroup } from '../../../src/cli/ui/round-view.js';
import { createRowLines, MAX_COLUMN_WIDTH } from '../../../src/cli/ui/row-line.js';
import { patchRows, putRow } from '../../../src/cli/ui/row-patch.js';

let unmount: (() => void) | undefined;
const level = chalk.level;
afterEach(() => {
  unmount?.();
  unmount = undefined;
  chalk.level = level;
});

function vm(i: number, version: number, image: string): Resource {
  const draft = newResource(
    { namespace: 'default', type: 'VMs.example.org', id: `vm-${String(i).padStart(4, '0')}` },
    { image, host: `host-${i % 3}` },
  );
  draft.metadata.version = version;
  return freezeResource(draft);
}

function group(rows: readonly ResourceRow[]): TypeGroup {
  return {
    type: 'VMs.example.org',
    displayType: 'VM',
    names: ['vms.example.org', 'vm'],
    columns: [
      { name: 'image', jsonPath: '{.image}' },
      { name: 'host', jsonPath: '{.host}' },
    ],
    sensitive: false,
    rows,
  };
}

/** The row as the list drew it before rows were one line: one nested `<Text>` per cell. */
function NestedCells({ g, row, widths }: { g: TypeGroup; row: ResourceRow; widths: number[] }) {
  const { cells, changed } = rowCells(g, row);
  const color = { '+': 'green', '-': 'red', '~': 'yellow', ' ': undefined }[row.marker];
  return (
    <Text wrap="truncate-end">
      <Text color={color} bold>
        {row.marker}
      </Text>{' '}
      {cells.map((text, i) => {
        const last = i === cells.length - 1;
        return (
          <Text
            key={i}
            {...(changed.has(i) ? { color: 'yellow', bold: true } : {})}
            {...(row.marker === '-' ? { strikethrough: true, dimColor: true } : {})}
          >
            {last ? text : text.padEnd(widths[i] ?? 0)}
            {last ? '' : '   '}
          </Text>
        );
      })}
    </Text>
  );
}

describe('row lines', () => {
  it('draw a row exactly as one styled <Text> per cell drew it, at every color level', () => {
    const before = vm(1, 1, 'debian');
    const rows: ResourceRow[] = [
      { marker: ' ', resource: before },
      { marker: '+', resource: vm(2, 1, 'alpine') },
      { marker: '~', resource: vm(1, 2, 'ubuntu'), previous: before },
      { marker: '-', resource: before, previous: before },
    ];
    const g = group(rows);
    const widths = [10, 8, 9, 3, 8, 12, 4];
    for (const colors of [0, 1, 3] as const) {
      chalk.level = colors;
      const lines = createRowLines();
      for (const row of rows) {
        const nested = render(<NestedCells g={g} row={row} widths={widths} />);
        const one = render(<Text wrap="truncate-end">{lines.line(g, row, widths)}</Text>);
        expect(one.lastFrame()).toBe(nested.lastFrame());
        nested.unmount();
        one.unmount();
      }
    }
  });

  it('without color keep bold, dim and strike-through, and no color', () => {
    const before = vm(1, 1, 'debian');
    const g = group([]);
    const widths = [10, 8, 9, 3, 8, 12, 4];
    chalk.level = 1;
    const lines = createRowLines({ color: false });
    const updated = lines.line(
      g,
      { marker: '~', resource: vm(1, 2, 'ubuntu'), previous: before },
      widths,
    );
    const destroyed = lines.line(g, { marker: '-', resource: before, previous: before }, widths);
    for (const line of [updated, destroyed]) {
      // eslint-disable-next-line no-control-regex
      expect(line).not.toMatch(/\u001b\[(?:3[0-7]|9[0-7])m/);
    }
    expect(updated).toContain(chalk.bold('~'));
    // eslint-disable-next-line no-control-regex
    expect(updated).toMatch(/\u001b\[1mubuntu/);
    // eslint-disable-next-line no-control-regex
    expect(destroyed).toMatch(/\u001b\[9m\u001b\[2mdebian/);
  });

  it('build a row once: the same row object at the same widths is a lookup', () => {
    const row: ResourceRow = { marker: ' ', resource: vm(1, 1, 'debian') };
    const g = group([row]);
    const lines = createRowLines();
    const first = lines.line(g, row, [7, 7, 7, 7, 7, 7, 7]);
    expect(lines.line(g, row, [7, 7, 7, 7, 7, 7, 7])).toBe(first);
    expect(lines.built).toEqual({ cells: 1, lines: 1 });
    // Other widths lay the same cells out again; a new definition of the type evaluates them again.
    lines.line(g, row, [9, 7, 7, 7, 7, 7, 7]);
    expect(lines.built).toEqual({ cells: 1, lines: 2 });
    lines.line({ ...g, columns: [{ name: 'image', jsonPath: '{.image}' }] }, row, [9]);
    expect(lines.built).toEqual({ cells: 2, lines: 3 });
  });

  it('on a new round redraw only the row that changed, out of a full screen of 1,000', () => {
    const rows: ResourceRow[] = Array.from({ length: 1000 }, (_, i) => ({
      marker: ' ',
      resource: vm(i, 1, 'debian'),
    }));
    const lines = createRowLines();
    const list = (g: TypeGroup) => (
      <ResourceList
        groups={[g]}
        selection={{ group: 0, row: 0 }}
        height={30}
        focused
        lines={lines}
      />
    );
    const app = render(list(group(rows)));
    unmount = app.unmount;
    // 28 rows under the title and the column headers.
    expect(lines.built).toEqual({ cells: 28, lines: 28 });
    const edited: ResourceRow = {
      marker: '~',
      resource: vm(5, 2, 'ubuntu'),
      previous: rows[5]?.resource,
    };
    app.rerender(list(group(patchRows(rows, [putRow(edited)]))));
    expect(lines.built).toEqual({ cells: 29, lines: 29 });
    expect(app.lastFrame()).toMatch(/^~ default +vm-0005 +2 .* ubuntu +host-2$/m);
  });

  it("cut a long id to the column's cap, so the spec columns of its type stay on screen", () => {
    const long = (() => {
      const draft = newResource(
        { namespace: 'default', type: 'VMs.example.org', id: `web-1-${'x'.repeat(200)}` },
        { image: 'debian', host: 'host-1' },
      );
      return freezeResource(draft);
    })();
    const rows: ResourceRow[] = [
      { marker: ' ', resource: long },
      { marker: '~', resource: vm(2, 2, 'ubuntu'), previous: vm(2, 1, 'debian') },
    ];
    const app = render(
      <ResourceList groups={[group(rows)]} selection={{ group: 0, row: 0 }} height={10} focused />,
    );
    unmount = app.unmount;
    const frame = app.lastFrame() ?? '';
    // ink's test renderer is 100 columns wide: the changed image and the host still fit.
    expect(frame).toMatch(/^~ default +vm-0002 +2 .* ubuntu +host-2$/m);
    expect(frame).toMatch(/^ {2}default +web-1-x+… +0 .* debian +host-1$/m);
    const line = frame.split('\n').find((l) => l.includes('web-1-')) ?? '';
    expect(line.indexOf('…') - line.indexOf('web-1-')).toBe(MAX_COLUMN_WIDTH - 1);
  });
});
