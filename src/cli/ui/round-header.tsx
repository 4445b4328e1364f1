import { Box, Text } from 'ink';
import { formatDuration } from '../duration.js';
import { plural } from '../render/plural.js';
import type { RoundView } from './round-view.js';

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

/** What started the round, in words. */
export function describeTrigger(round: Pick<RoundView, 'trigger' | 'changed'>): string {
  if (round.trigger === 'start') return 'started';
  if (round.trigger === 'rerun') return 're-run from a fresh state';
  const files = round.changed.length > 0 ? round.changed.join(', ') : 'files';
  return round.trigger === 'restart'
    ? `${files} changed: restarted on a fresh state`
    : `${files} changed`;
}

/** How the round ended, in words. */
export function describeStatus(round: Pick<RoundView, 'status' | 'reason'>): string {
  switch (round.status) {
    case 'converged':
      return 'converged';
    case 'not-converged':
      return `not converged (${round.reason ?? 'unknown'})`;
    case 'failing':
      return `failing${round.reason !== undefined ? ` (${round.reason})` : ''}`;
    case 'not-applied':
      return 'not applied';
    case 'error':
      return 'error';
  }
}

/** The counts and costs of a round, one line. */
export function roundFacts(round: RoundView): string {
  const { created, updated, destroyed } = round.counts;
  const parts = [
    `${created} created, ${updated} updated, ${destroyed} destroyed`,
    plural(round.resources, 'resource'),
    plural(round.files, 'file'),
  ];
  if (round.trigger !== 'start') parts.push(`read ${round.cost.read}, parsed ${round.cost.parsed}`);
  if (round.wallTime !== undefined) parts.push(formatDuration(round.wallTime));
  return parts.join(' | ');
}
