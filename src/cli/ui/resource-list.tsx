import { Box, Text } from 'ink';
import { columnHeaders, rowCells, type RowCells } from './resource-cells.js';
import { rowKey, type ChangeMarker, type TypeGroup } from './round-view.js';
import { visibleLines, type Selection } from './resource-window.js';

/** Resource list props: the (filtered) groups, the selection and the lines it has. */
export interface ResourceListProps {
  readonly groups: readonly TypeGroup[];
  readonly selection: Selection;
  readonly height: number;
  readonly focused: boolean;
}

const MARKER_COLOR: Record<ChangeMarker, string | undefined> = {
  '+': 'green',
  '-': 'red',
  '~': 'yellow',
  ' ': undefined,
};

/**
 * The resources, grouped by type, as talosctl's watch shows them: a change marker per row (`+`
 * created, `-` destroyed, `~` updated this round) and the changed cells highlighted. Virtualised:
 * only the lines on screen are built.
 */
export function ResourceList({ groups, selection, height, focused }: ResourceListProps) {
  if (groups.length === 0) {
    return (
      <Box height={height}>
        <Text dimColor>no resources</Text>
      </Box>
    );
  }
  const lines = visibleLines(groups, selection, height);
  // Cells and widths of the rows on screen only, per group.
  const cells = new Map<string, RowCells>();
  const widths = new Map<number, number[]>();
  for (const line of lines) {
    if (line.kind === 'type') continue;
    let texts: readonly string[];
    if (line.kind === 'columns') texts = columnHeaders(line.group);
    else {
      const row = rowCells(line.group, line.row);
      cells.set(rowKey(line.row), row);
      texts = row.cells;
    }
    const w = widths.get(line.index) ?? [];
    texts.forEach((text, i) => (w[i] = Math.max(w[i] ?? 0, text.length)));
    widths.set(line.index, w);
  }
  return (
    <Box flexDirection="column" height={height}>
      {lines.map((line) => {
        const w = widths.get(line.index) ?? [];
        if (line.kind === 'type') {
          const selectedGroup = line.index === selection.group;
          return (
            <Text key={`t${line.index}`} bold color={selectedGroup && focused ? 'cyan' : undefined}>
              {`${line.group.displayType} (${line.group.type}): ${line.group.rows.length}`}
            </Text>
          );
        }
        if (line.kind === 'columns') {
          return (
            <Text key={`c${line.index}`} dimColor wrap="truncate-end">
              {`  ${pad(columnHeaders(line.group), w)}`}
            </Text>
          );
        }
        const { cells: texts, changed } = cells.get(rowKey(line.row)) as RowCells;
        const selected =
          focused && line.index === selection.group && line.rowIndex === selection.row;
        const marker = line.row.marker;
        return (
          <Text key={`r${line.index}:${rowKey(line.row)}`} wrap="truncate-end" inverse={selected}>
            <Text color={MARKER_COLOR[marker]} bold>
              {marker}
            </Text>{' '}
            {texts.map((text, i) => {
              const last = i === texts.length - 1;
              const padded = last ? text : text.padEnd(w[i] ?? 0);
              return (
                <Text
                  key={i}
                  {...(changed.has(i) ? { color: 'yellow', bold: true } : {})}
                  {...(marker === '-' ? { strikethrough: true, dimColor: true } : {})}
                >
                  {padded}
                  {last ? '' : '   '}
                </Text>
              );
            })}
          </Text>
        );
      })}
    </Box>
  );
}

function pad(texts: readonly string[], widths: readonly number[]): string {
  return texts.map((t, i) => (i === texts.length - 1 ? t : t.padEnd(widths[i] ?? 0))).join('   ');
}
