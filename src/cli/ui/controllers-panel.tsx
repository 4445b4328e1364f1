import { Box, Text } from 'ink';
import { escapeControl } from '../render/escape-control.js';
import type { ControllerRow } from './round-view.js';
import { describeCondition, failingText } from './round-text.js';
import { useHue } from './screen-color.js';

/** Controllers panel props. */
export interface ControllersPanelProps {
  readonly controllers: readonly ControllerRow[];
  readonly maxLines: number;
  /** Focused with `c`: one is selected, and Enter shows its whole last error and failing items. */
  readonly focused: boolean;
  readonly selected: number;
}

const CONDITION_COLOR = {
  idle: 'green',
  running: 'cyan',
  backoff: 'yellow',
  failed: 'red',
  stopped: 'gray',
} as const;

/**
 * Each controller on one line: its status, the items it gave up on (named first, so that a narrow
 * terminal cuts the counts and the error before them), its reconciles and writes this round, and
 * the first line of its last error (Enter in the controllers focus shows it whole).
 */
export function ControllersPanel({
  controllers,
  maxLines,
  focused,
  selected,
}: ControllersPanelProps) {
  const hue = useHue();
  if (controllers.length === 0 || maxLines < 2) return null;
  const width = Math.max(...controllers.map((c) => c.name.length));
  const rows = maxLines - 1;
  const top = Math.max(0, Math.min(selected - Math.floor(rows / 2), controllers.length - rows));
  const shown = controllers.slice(top, top + rows);
  return (
    <Box flexDirection="column">
      <Text bold color={hue(focused ? 'cyan' : undefined)}>
        {`CONTROLLERS (${controllers.length})`}
      </Text>
      {shown.map((c, i) => {
        const isSelected = focused && top + i === selected;
        return (
          <Text key={c.name} wrap="truncate-end" inverse={isSelected}>
            {`${c.name.padEnd(width)}  `}
            <Text color={hue(CONDITION_COLOR[c.condition])}>{describeCondition(c).padEnd(9)}</Text>
            {c.failingItems > 0 ? <Text color={hue('red')}>{`  ${failingText(c)};`}</Text> : null}
            {`  ${c.reconciles} reconciles, ${c.writes} writes`}
            {c.errors > 0 ? <Text color={hue('red')}>{`, ${c.errors} errors`}</Text> : null}
            {c.lastError !== undefined ? (
              <Text color={hue('red')}>{`  ${escapeControl(firstLine(c.lastError))}`}</Text>
            ) : null}
          </Text>
        );
      })}
    </Box>
  );
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}
