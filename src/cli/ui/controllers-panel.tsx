import { Box, Text } from 'ink';
import type { ControllerRow } from './round-view.js';
import { describeCondition } from './round-text.js';

/** Controllers panel props. */
export interface ControllersPanelProps {
  readonly controllers: readonly ControllerRow[];
  readonly maxLines: number;
  /** Focused with `c`: the selected controller shows its whole last error. */
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

/** Each controller: its status, its reconciles and writes this round, and its last error. */
export function ControllersPanel({
  controllers,
  maxLines,
  focused,
  selected,
}: ControllersPanelProps) {
  if (controllers.length === 0 || maxLines < 2) return null;
  const width = Math.max(...controllers.map((c) => c.name.length));
  const rows = maxLines - 1;
  const top = Math.max(0, Math.min(selected - Math.floor(rows / 2), controllers.length - rows));
  const shown = controllers.slice(top, top + rows);
  return (
    <Box flexDirection="column">
      <Text bold color={focused ? 'cyan' : undefined}>
        {`CONTROLLERS (${controllers.length})`}
      </Text>
      {shown.map((c, i) => {
        const isSelected = focused && top + i === selected;
        return (
          <Text key={c.name} wrap="truncate-end" inverse={isSelected}>
            {`${c.name.padEnd(width)}  `}
            <Text color={CONDITION_COLOR[c.condition]}>{describeCondition(c).padEnd(9)}</Text>
            {`  ${c.reconciles} reconciles, ${c.writes} writes`}
            {c.errors > 0 ? <Text color="red">{`, ${c.errors} errors`}</Text> : null}
            {c.failingItems > 0 ? (
              <Text color="red">{`, ${c.failingItems} items failing`}</Text>
            ) : null}
            {c.lastError !== undefined ? (
              <Text color="red">{`  ${isSelected ? c.lastError : firstLine(c.lastError)}`}</Text>
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
