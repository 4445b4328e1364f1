import { Box, Text } from 'ink';
import { displayWidth } from '../render/display-width.js';
import { memo, useContext, useState } from 'react';
import { columnHeaders } from './resource-cells.js';
import { rowKey, type TypeGroup } from './round-view.js';
import { visibleLines, type Selection } from './resource-window.js';
import { CELL_GAP, createRowLines, fitCell, MAX_COLUMN_WIDTH, type RowLines } from './row-line.js';
import { ScreenColor, useHue } from './screen-color.js';

/** Resource list props: the (filtered) groups, the selection and the lines it has. */
export interface ResourceListProps {
  readonly groups: readonly TypeGroup[];
  readonly selection: Selection;
  readonly height: number;
  readonly focused: boolean;
  /** The terminal's width: the OWNER column gives up room first when the row is wider. */
  readonly columns?: number;
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
  columns,
  lines: given,
}: ResourceListProps) {
  const color = useContext(ScreenColor);
  const hue = useHue();
  const [own] = useState(() => createRowLines({ color }));
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
  // A long owner (a kro output's `ResourceGraph(webapp.kro.run)`) pushed the spec columns, those
  // an edit changes, off a narrow terminal: the owner column narrows first, down to OWNER_MIN.
  const fitted = new Map<number, number[]>();
  for (const line of lines) {
    const w = widths.get(line.index);
    if (w === undefined || fitted.has(line.index)) continue;
    fitted.set(line.index, fitOwner(columnHeaders(line.group), w, columns));
  }
  return (
    <Box flexDirection="column" height={height}>
      {lines.map((line) => {
        const w = fitted.get(line.index) ?? [];
        if (line.kind === 'type') {
          const selectedGroup = line.index === selection.group;
          return (
            <Line
              key={`t${line.index}`}
              bold
              wrap="truncate-end"
              color={hue(selectedGroup && focused ? 'cyan' : undefined)}
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

/** The narrowest the OWNER column gets to let the columns after it on screen. */
const OWNER_MIN = 12;

/**
 * The widths with the OWNER column narrowed by what the row is wider than the terminal (the
 * two-column marker included), to {@link OWNER_MIN} at least; as they are when it fits.
 */
function fitOwner(headers: readonly string[], widths: number[], columns?: number): number[] {
  const owner = headers.indexOf('OWNER');
  const width = widths[owner];
  if (columns === undefined || owner < 0 || owner === headers.length - 1 || width === undefined) {
    return widths;
  }
  const total = 2 + widths.reduce((sum, w) => sum + w, 0) + CELL_GAP.length * (widths.length - 1);
  const over = total - columns;
  if (over <= 0 || width <= OWNER_MIN) return widths;
  const fitted = [...widths];
  fitted[owner] = Math.max(OWNER_MIN, width - over);
  return fitted;
}

function pad(texts: readonly string[], widths: readonly number[]): string {
  return texts
    .map((t, i) => (i === texts.length - 1 ? t : fitCell(t, widths[i] ?? 0)))
    .join(CELL_GAP);
}
