import { Box, Text } from 'ink';
import { formatFinding } from '../../loaders/finding.js';
import type { RoundView } from './round-view.js';

/** Findings panel props: the round and at most how many lines it may take. */
export interface FindingsPanelProps {
  readonly round: RoundView;
  readonly maxLines: number;
}

/**
 * The last round's findings (broken manifests, config errors), each with its file:line:col, and
 * whether the last good state keeps running. Nothing when there is nothing to say.
 */
export function FindingsPanel({ round, maxLines }: FindingsPanelProps) {
  const lines = findingLines(round);
  // No room (a short terminal, the help): not even the count, or the screen outgrows the terminal.
  if (lines.length === 0 || maxLines <= 0) return null;
  const shown = lines.length > maxLines ? lines.slice(0, Math.max(maxLines - 1, 0)) : lines;
  const hidden = lines.length - shown.length;
  return (
    <Box flexDirection="column">
      {shown.map((line, i) => (
        <Text key={i} wrap="truncate-end" color={line.color}>
          {line.text}
        </Text>
      ))}
      {hidden > 0 ? <Text dimColor>{`... and ${hidden} more`}</Text> : null}
    </Box>
  );
}

/** The lines the panel would show, most important first. */
export function findingLines(
  round: RoundView,
): { readonly text: string; readonly color: 'red' | 'yellow' }[] {
  const lines: { text: string; color: 'red' | 'yellow' }[] = [];
  if (round.lastGoodRunning) {
    lines.push({ text: 'nothing applied: the last good state keeps running', color: 'yellow' });
  }
  if (round.queryError !== undefined) lines.push({ text: round.queryError, color: 'red' });
  if (round.reason !== undefined && round.status === 'error') {
    for (const text of round.reason.split('\n')) lines.push({ text, color: 'red' });
  }
  for (const finding of round.findings) {
    lines.push({
      text: formatFinding(finding),
      color: finding.severity === 'error' ? 'red' : 'yellow',
    });
  }
  return lines;
}
