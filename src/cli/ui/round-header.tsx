import { Box, Text } from 'ink';
import type { RoundView } from './round-view.js';
import { describeStatus, describeTrigger, roundFacts } from './round-text.js';

/** Header props: the round, and whether reloading is paused. */
export interface RoundHeaderProps {
  readonly round: RoundView;
  readonly paused?: boolean;
}

const STATUS_COLOR = {
  converged: 'green',
  'not-converged': 'red',
  failing: 'red',
  'not-applied': 'yellow',
  error: 'red',
} as const;

/**
 * The two lines that never scroll away: the round, what triggered it and how it ended; then the
 * counts of this round and what it cost.
 */
export function RoundHeader({ round, paused = false }: RoundHeaderProps) {
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>cosi watch</Text>
        {`  round ${round.number}  ${describeTrigger(round)}  `}
        <Text bold color={STATUS_COLOR[round.status]}>
          {describeStatus(round)}
        </Text>
        {paused ? <Text color="yellow"> [paused]</Text> : null}
      </Text>
      <Text wrap="truncate-end" dimColor>
        {roundFacts(round)}
      </Text>
    </Box>
  );
}
