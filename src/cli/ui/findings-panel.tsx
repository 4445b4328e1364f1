import { Box, Text } from 'ink';
import { formatFinding } from '../../loaders/finding.js';
import { cutDisplay, displayWidth } from '../render/display-width.js';
import type { DetailLine } from './resource-detail.js';
import type { RoundView } from './round-view.js';
import { useHue } from './screen-color.js';
import { MAX_FINDING_LINES } from './screen-layout.js';

/** Findings panel props: the round, at most how many lines it may take, and their width. */
export interface FindingsPanelProps {
  readonly round: RoundView;
  readonly maxLines: number;
  readonly columns: number;
}

/** A line of the panel; `item`: which finding (or notice) it is part of. */
interface FindingLine {
  readonly text: string;
  readonly color: 'red' | 'yellow';
  readonly item: number;
}

/**
 * The last round's findings (broken manifests, config errors), each with its file:line:col, and
 * whether the last good state keeps running. Nothing when there is nothing to say. A finding is
 * wrapped to the terminal's width over the lines the findings share (a lone one gets them all),
 * so that its cause is read on screen, not cut at the first line.
 */
export function FindingsPanel({ round, maxLines, columns }: FindingsPanelProps) {
  const hue = useHue();
  const lines = findingLines(round, columns);
  // No room (a short terminal, the help): not even the count, or the screen outgrows the terminal.
  if (lines.length === 0 || maxLines <= 0) return null;
  const shown = lines.length > maxLines ? lines.slice(0, Math.max(maxLines - 1, 0)) : lines;
  const begun = new Set(shown.map((l) => l.item));
  const hidden = new Set(lines.filter((l) => !begun.has(l.item)).map((l) => l.item)).size;
  return (
    <Box flexDirection="column">
      {shown.map((line, i) => (
        <Text key={i} wrap="truncate-end" color={hue(line.color)}>
          {line.text}
        </Text>
      ))}
      {hidden > 0 ? <Text dimColor>{`... and ${hidden} more (f shows them all)`}</Text> : null}
    </Box>
  );
}

/**
 * The lines the panel would show, most important first: the notices a line each, then each
 * finding wrapped to `columns` over its share of {@link MAX_FINDING_LINES} (one line at least;
 * what does not fit is cut with `…`).
 */
export function findingLines(round: RoundView, columns: number): FindingLine[] {
  const notices: { text: string; color: 'red' | 'yellow' }[] = [];
  if (round.lastGoodRunning) {
    notices.push({ text: 'nothing applied: the last good state keeps running', color: 'yellow' });
  }
  if (round.queryError !== undefined) notices.push({ text: round.queryError, color: 'red' });
  if (round.reason !== undefined && round.status === 'error') {
    for (const text of round.reason.split('\n')) notices.push({ text, color: 'red' });
  }
  const lines: FindingLine[] = notices.map((n, item) => ({ ...n, item }));
  const count = round.findings.length;
  const share = Math.max(1, Math.floor((MAX_FINDING_LINES - notices.length) / Math.max(count, 1)));
  round.findings.forEach((finding, i) => {
    const color = finding.severity === 'error' ? 'red' : 'yellow';
    for (const text of wrapLine(formatFinding(finding), columns, share)) {
      lines.push({ text, color, item: notices.length + i });
    }
  });
  return lines;
}

/**
 * Every finding of the round, each wrapped whole to `columns`, after the notices: the page `f`
 * opens in place of the resources, for the findings the panel has no room for (a 20-file
 * checkout that broke them all).
 */
export function findingsPage(round: RoundView, columns: number): DetailLine[] {
  const count = round.findings.length;
  const lines: DetailLine[] = [
    { text: count === 0 ? 'findings: none this round' : `findings (${count})`, style: 'title' },
  ];
  const notices = findingLines({ ...round, findings: [] }, columns);
  for (const notice of notices) {
    lines.push({ text: notice.text, style: notice.color === 'red' ? 'error' : 'warning' });
  }
  for (const finding of round.findings) {
    const style = finding.severity === 'error' ? 'error' : 'warning';
    for (const text of wrapLine(formatFinding(finding), columns, Number.MAX_SAFE_INTEGER)) {
      lines.push({ text, style });
    }
  }
  return lines;
}

/** Continuation lines of a wrapped finding are indented by this. */
const INDENT = '  ';

/**
 * `text` in lines of at most `width` columns, broken at spaces (a word longer than a line is
 * cut; its own line breaks are spaces), at most `max` of them: the last cut with `…` when the text goes on. One line, as it is
 * (the screen cuts it), when the terminal is too narrow to wrap.
 */
function wrapLine(text: string, width: number, max: number): string[] {
  if (max <= 1 || width <= INDENT.length + 8 || displayWidth(text) <= width) return [text];
  const lines: string[] = [];
  // A message of several lines (a controller's error) reads on as one: each screen line is one.
  let rest = text.replace(/\s*\n\s*/g, ' ');
  while (rest !== '' && lines.length < max) {
    const room = lines.length === 0 ? width : width - INDENT.length;
    const prefix = lines.length === 0 ? '' : INDENT;
    if (lines.length === max - 1 || displayWidth(rest) <= room) {
      lines.push(prefix + cutDisplay(rest, room));
      break;
    }
    let cut = rest.lastIndexOf(' ', room);
    while (cut > 0 && displayWidth(rest.slice(0, cut)) > room) cut = rest.lastIndexOf(' ', cut - 1);
    if (cut <= 0) {
      const head = cutDisplay(rest, room + 1).slice(0, -1);
      lines.push(prefix + head);
      rest = rest.slice(head.length);
    } else {
      lines.push(prefix + rest.slice(0, cut));
      rest = rest.slice(cut + 1);
    }
  }
  return lines;
}
