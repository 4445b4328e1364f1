import { Box, Text } from 'ink';
import { headerLine, type HeaderState } from './header-line.js';
import type { RoundView } from './round-view.js';
import { roundFacts } from './round-text.js';
import { useHue } from './screen-color.js';

/**
 * Header props: the round, whether reloading is paused, the round under way, and the width and
 * lines it has.
 */
export interface RoundHeaderProps extends Partial<HeaderState> {
  readonly round: RoundView;
  readonly columns: number;
  /** 1: the round and its verdict only; 2 (default): its counts and cost too. */
  readonly lines?: number;
}

const STATUS_COLOR = {
  converged: 'green',
  'not-converged': 'red',
  failing: 'red',
  'not-applied': 'yellow',
  error: 'red',
} as const;

/**
 * The two lines that never scroll away: the round, what triggered it and how it ended (fitted to
 * the width, the trigger cut first); then the counts of this round and what it cost.
 */
export function RoundHeader({
  round,
  paused = false,
  pending = [],
  running,
  columns,
  lines = 2,
}: RoundHeaderProps) {
  const hue = useHue();
  const parts = headerLine(round, { paused, pending, ...(running ? { running } : {}) }, columns);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        {parts.map((part, i) =>
          part.style === 'name' ? (
            <Text key={i} bold>
              {part.text}
            </Text>
          ) : part.style === 'status' ? (
            <Text key={i} bold color={hue(STATUS_COLOR[round.status])}>
              {part.text}
            </Text>
          ) : part.style === 'paused' ? (
            <Text key={i} color={hue('yellow')}>
              {part.text}
            </Text>
          ) : part.style === 'running' ? (
            <Text key={i} color={hue('cyan')}>
              {part.text}
            </Text>
          ) : (
            part.text
          ),
        )}
      </Text>
      {lines > 1 ? (
        <Text wrap="truncate-end" dimColor>
          {roundFacts(round)}
        </Text>
      ) : null}
    </Box>
  );
}
