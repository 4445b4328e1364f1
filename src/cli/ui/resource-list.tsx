import { Box, Text } from 'ink';
import { displayWidth } from '../render/display-width.js';
import { memo, useState } from 'react';
import { columnHeaders } from './resource-cells.js';
import { rowKey, type TypeGroup } from './round-view.js';
import { visibleLines, type Selection } from './resource-window.js';
import { CELL_GAP, createRowLines, fitCell, MAX_COLUMN_WIDTH, type RowLines } from './row-line.js';

/** Resource list props: the (filtered) groups, the selection and the lines it has. */
export interface ResourceListProps {
  readonly groups: readonly TypeGroup[];
  readonly selection: Selection;
  readonly height: number;
  readonly focused: boolean;
  /** The cache of row lines; by default one per mounted list. */
  readonly lines?: RowLines;
}

/**
 * One line of the list. Its text is a finished (styled) string, so when neither the text nor
 * the style props changed since the last frame, React skips it.
 */
const Line = memo(Text);

/**
 * The resources, grouped by type, as talosctl's watch shows them: a change marker per row (`+`
 * created, `-` destroyed, `~` updated this round) and the changed cells highlighted. Virtualised:
 * only the lines on screen are built, each row as one line of text, built once per row object.
 */
export function ResourceList({
  groups,
  selection,
  height,
  focused,
  lines: given,
}: ResourceListProps) {
  const [own] = useState(createRowLines);
  // The widest cell of each column seen so far, by type: columns keep their place as rows
  // scroll by, instead of being packed again to the rows on screen.
  const [seen] = useState(() => new Map<string, number[]>());
  const rowLines = given ?? own;
  if (groups.length === 0) {
    return (
      <Box height={height}>
        <Text dimColor>no resources</Text>
      </Box>
    );
  }
  const lines = visibleLines(groups, selection, height);
  // Column widths of the rows on screen and the headers, per group, never narrower than before.
  const widths = new Map<number, number[]>();
  for (const line of lines) {
    if (line.kind === 'type') continue;
    const texts =
      line.kind === 'columns'
        ? columnHeaders(line.group)
        : rowLines.cells(line.group, line.row).cells;
    let w = widths.get(line.index);
    if (w === undefined) {
      w = [...(seen.get(line.group.type) ?? [])];
      widths.set(line.index, w);
      seen.set(line.group.type, w);
    }
    for (const [i, text] of texts.entries()) {
      w[i] = Math.max(w[i] ?? 0, Math.min(displayWidth(text), MAX_COLUMN_WIDTH));
    }
  }
  return (
    <Box flexDirection="column" height={height}>
      {lines.map((line) => {
        const w = widths.get(line.index) ?? [];
        if (line.kind === 'type') {
          const selectedGroup = line.index === selection.group;
          return (
            <Line
              key={`t${line.index}`}
              bold
              wrap="truncate-end"
              color={selectedGroup && focused ? 'cyan' : undefined}
            >
              {`${line.group.displayType} (${line.group.type}): ${line.group.rows.length}`}
            </Line>
          );
        }
        if (line.kind === 'columns') {
          return (
            <Line key={`c${line.index}`} dimColor wrap="truncate-end">
              {`  ${pad(columnHeaders(line.group), w)}`}
            </Line>
          );
        }
        const selected =
          focused && line.index === selection.group && line.rowIndex === selection.row;
        return (
          <Line key={`r${line.index}:${rowKey(line.row)}`} wrap="truncate-end" inverse={selected}>
            {rowLines.line(line.group, line.row, w)}
          </Line>
        );
      })}
    </Box>
  );
}

function pad(texts: readonly string[], widths: readonly number[]): string {
  return texts
    .map((t, i) => (i === texts.length - 1 ? t : fitCell(t, widths[i] ?? 0)))
    .join(CELL_GAP);
}
