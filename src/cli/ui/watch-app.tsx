import { Box, Text, useInput, type Key } from 'ink';
import { useEffect, useMemo, useState } from 'react';
import { controllerDetail } from './controller-detail.js';
import { ControllersPanel } from './controllers-panel.js';
import { findingLines, FindingsPanel, findingsPage } from './findings-panel.js';
import { resourceDetail, type DetailLine } from './resource-detail.js';
import { filterGroups } from './resource-filter.js';
import { completionOf, editLine, lineAtEnd, type EditedLine } from './line-edit.js';
import { keysOfRead } from './read-keys.js';
import { ResourceList } from './resource-list.js';
import { clampSelection, moveSelection, nextMarked, type Selection } from './resource-window.js';
import { RoundHeader } from './round-header.js';
import { useRunningFor } from './running-for.js';
import { ScreenColor, useHue } from './screen-color.js';
import { screenLayout } from './screen-layout.js';
import type { ResourceRow, RoundView, TypeGroup } from './round-view.js';

/** What the watch screen shows and what its keys ask of the session. */
export interface WatchAppProps {
  /** The last round; undefined until the first one is done. */
  readonly round: RoundView | undefined;
  /** The terminal's size. */
  readonly rows: number;
  readonly columns: number;
  /** Reloading is paused (`p`). */
  readonly paused: boolean;
  /** Files changed while paused (display paths): the header counts them. */
  readonly pending?: readonly string[];
  /**
   * The round under way, and when it started (epoch ms): the header says so, with its seconds,
   * once it has run a moment. The round shown stays the last one until it ends.
   */
  readonly running?: RoundRunning;
  /** Pin timestamps in the YAML of the detail view. */
  readonly stable?: boolean;
  /**
   * `false`: draw without color (`NO_COLOR`, `--no-color`); bold, dim and reverse video stay, so
   * that the selected row still shows.
   */
  readonly color?: boolean;
  readonly onQuit: () => void;
  readonly onTogglePause: () => void;
  /** `r`: run again from a fresh state. */
  readonly onRerun: () => void;
  /**
   * The detail of a resource: {@link resourceDetail} by default; a promise when it is asked of
   * the worker thread the session runs in (shown as loading meanwhile).
   */
  readonly detailOf?: DetailSource;
}

/** A round that started at `since` (epoch ms) and has not ended. */
export interface RoundRunning {
  readonly number: number;
  readonly since: number;
}

/** Where the detail pane's lines come from. */
export type DetailSource = (
  round: RoundView,
  group: TypeGroup,
  row: ResourceRow,
  options: { readonly stable: boolean },
) => DetailLine[] | Promise<DetailLine[]>;

const LOADING: DetailLine[] = [{ text: 'loading...', style: 'dim' }];

/**
 * `controllers`: the panel focused (`c`); `controller`: the selected one opened (Enter);
 * `findings`: every finding of the round (`f`), in place of the resources.
 */
type Mode = 'list' | 'filter' | 'detail' | 'controllers' | 'controller' | 'findings' | 'help';

/** The keys, as the footer and the help show them. */
export const KEYS: readonly (readonly [string, string])[] = [
  ['q', 'quit'],
  ['/', 'filter by type, id or label'],
  ['tab ←→', 'next / previous type'],
  ['↑↓', 'move between rows'],
  ['n N', 'changed rows: next / previous (+ ~ -)'],
  ['enter', 'open the resource (or controller)'],
  ['f', 'findings (all of them)'],
  ['c', 'controllers'],
  ['p', 'pause reloading'],
  ['r', 're-run from a fresh state'],
  ['?', 'help'],
];

/**
 * The `cosi watch` screen: a header that never scrolls away, the findings of the last round, the
 * resources grouped by type (virtualised, with change markers), the controllers panel and a
 * footer with the keys. Enter opens a resource: its lineage, last writes, diff and YAML.
 */
export function WatchApp(props: WatchAppProps) {
  return (
    <ScreenColor.Provider value={props.color !== false}>
      <WatchView {...props} />
    </ScreenColor.Provider>
  );
}

function WatchView(props: WatchAppProps) {
  const { round, rows, paused } = props;
  const hue = useHue();
  const runningFor = useRunningFor(props.running?.since);
  const [mode, setMode] = useState<Mode>('list');
  const [filter, setFilter] = useState('');
  const [filterCursor, setFilterCursor] = useState(0);
  const [selection, setSelection] = useState<Selection>({ group: 0, row: 0 });
  const [controller, setController] = useState(0);
  const [scroll, setScroll] = useState(0);

  const groups = useMemo(() => filterGroups(round?.groups ?? [], filter), [round, filter]);
  const selected = clampSelection(groups, selection);
  const selectedGroup = groups[selected.group];
  const selectedRow = selectedGroup?.rows[selected.row];
  const detailOf = props.detailOf ?? resourceDetail;
  const computed = useMemo<DetailLine[] | Promise<DetailLine[]>>(
    () =>
      mode === 'detail' && round && selectedGroup && selectedRow
        ? detailOf(round, selectedGroup, selectedRow, { stable: props.stable === true })
        : [],
    [mode, round, selectedGroup, selectedRow, props.stable, detailOf],
  );
  // An answer is shown only for the question it answers: a later selection's wins.
  const [answered, setAnswered] = useState<{
    readonly to: Promise<DetailLine[]>;
    readonly lines: DetailLine[];
  }>();
  useEffect(() => {
    if (!(computed instanceof Promise)) return;
    let current = true;
    computed.then(
      (lines) => {
        if (current) setAnswered({ to: computed, lines });
      },
      (error: unknown) => {
        if (current) {
          setAnswered({
            to: computed,
            lines: [{ text: `  no detail: ${String(error)}`, style: 'dim' }],
          });
        }
      },
    );
    return () => {
      current = false;
    };
  }, [computed]);
  const detail =
    computed instanceof Promise ? (answered?.to === computed ? answered.lines : LOADING) : computed;
  const controllers = round?.controllers ?? [];
  const selectedController = controllers[Math.min(controller, controllers.length - 1)];
  const opened =
    mode === 'controller' && selectedController ? controllerDetail(selectedController) : [];
  const findings = useMemo(
    () => (mode === 'findings' && round ? findingsPage(round, props.columns) : []),
    [mode, round, props.columns],
  );

  // Heights: the header first, then the body, the footer, the findings and the controllers, as
  // room allows (see screen-layout.ts); the help and the findings page take the findings' and
  // controllers' room.
  const overlay = mode === 'help' || mode === 'findings';
  const layout = screenLayout(rows, {
    findings: round && !overlay ? findingLines(round, props.columns).length : 0,
    controllers: overlay ? 0 : controllers.length,
    filter: mode === 'filter' || filter !== '',
  });
  const bodyHeight = layout.body;

  /**
   * One key, in `current` mode; `go` changes the mode. Returns false when the screen is done
   * with the read (it quit).
   */
  const onKey = (input: string, key: Key, current: Mode, go: (next: Mode) => void): boolean => {
    if (input === 'q' || (key.ctrl && input === 'c')) {
      props.onQuit();
      return false;
    }
    if (key.escape) {
      go(current === 'controller' ? 'controllers' : 'list');
      return true;
    }
    if (input === '?') {
      setScroll(0);
      go(current === 'help' ? 'list' : 'help');
      return true;
    }
    if (input === '/') {
      setFilterCursor(filter.length);
      go('filter');
      return true;
    }
    if (input === 'p') {
      props.onTogglePause();
      return true;
    }
    if (input === 'r') {
      props.onRerun();
      return true;
    }
    if (input === 'c') {
      go(current === 'controllers' ? 'list' : 'controllers');
      return true;
    }
    if (input === 'f') {
      setScroll(0);
      go(current === 'findings' ? 'list' : 'findings');
      return true;
    }
    if (current === 'help') {
      const last = Math.max(HELP_LINES.length - bodyHeight, 0);
      if (key.upArrow) setScroll((s) => Math.max(s - 1, 0));
      if (key.downArrow) setScroll((s) => Math.min(s + 1, last));
      return true;
    }
    if (current === 'detail' || current === 'controller' || current === 'findings') {
      if (key.return || key.backspace || key.delete) {
        go(current === 'controller' ? 'controllers' : 'list');
        return true;
      }
      const page = Math.max(bodyHeight - 1, 1);
      const shown = current === 'detail' ? detail : current === 'findings' ? findings : opened;
      const last = Math.max(shown.length - 1, 0);
      if (key.upArrow) setScroll((s) => Math.max(s - 1, 0));
      if (key.downArrow) setScroll((s) => Math.min(s + 1, last));
      if (key.pageUp) setScroll((s) => Math.max(s - page, 0));
      if (key.pageDown) setScroll((s) => Math.min(s + page, last));
      return true;
    }
    if (current === 'controllers') {
      if (key.return && selectedController) {
        setScroll(0);
        go('controller');
        return true;
      }
      if (key.upArrow) setController((i) => Math.max(i - 1, 0));
      if (key.downArrow) setController((i) => Math.min(i + 1, controllers.length - 1));
      return true;
    }
    if (key.return && selectedRow) {
      setScroll(0);
      go('detail');
      return true;
    }
    // Functional updates: keys typed faster than the screen redraws each count.
    const move = (delta: number) => setSelection((s) => moveSelection(groups, s, delta));
    if (key.upArrow) move(-1);
    if (key.downArrow) move(1);
    if (key.pageUp) move(-bodyHeight);
    if (key.pageDown) move(bodyHeight);
    if (input === 'n' || input === 'N') {
      setSelection((s) => nextMarked(groups, s, input === 'n' ? 1 : -1));
    }
    const count = Math.max(groups.length, 1);
    if ((key.tab && !key.shift) || key.rightArrow) {
      setSelection((s) =>
        clampSelection(groups, { group: (clampSelection(groups, s).group + 1) % count, row: 0 }),
      );
    } else if (key.leftArrow || (key.tab && key.shift)) {
      setSelection((s) =>
        clampSelection(groups, {
          group: (clampSelection(groups, s).group - 1 + count) % count,
          row: 0,
        }),
      );
    }
    return true;
  };

  const typeNames = useMemo(
    () => (round?.groups ?? []).map((g) => g.displayType.toLowerCase()),
    [round],
  );
  useInput((input, key) => {
    // A read may hold several keys (`/web` and Enter, pasted or batched): each in turn, in the
    // mode the keys before it left. Once `/` opened the filter, what follows is its text, edited
    // as a shell's prompt edits a line (line-edit.ts).
    let current = mode;
    let line: EditedLine | undefined;
    const go = (next: Mode) => {
      current = next;
      setMode(next);
    };
    for (const [char, k] of keysOfRead(input, key)) {
      if (current === 'filter') {
        line ??= { text: filter, cursor: Math.min(filterCursor, filter.length) };
        if (k.ctrl && char === 'c') {
          props.onQuit();
          return;
        } else if (k.return) {
          go('list');
        } else if (k.escape) {
          line = lineAtEnd('');
          go('list');
        } else {
          line = editLine(line, char, k, completionOf(line.text, typeNames));
        }
        continue;
      }
      if (!onKey(char, k, current, go)) return;
    }
    if (line === undefined) return;
    setFilterCursor(line.cursor);
    if (line.text !== filter) {
      setFilter(line.text);
      setSelection({ group: 0, row: 0 });
    }
  });

  if (!round) {
    // The first round: reading, validating and converging a large tree takes seconds.
    return (
      <Text>{`cosi watch: loading...${runningFor === undefined ? '' : ` ${runningFor}s`}`}</Text>
    );
  }
  return (
    <Box flexDirection="column" height={layout.height}>
      <RoundHeader
        round={round}
        paused={paused}
        pending={props.pending ?? []}
        {...(props.running && runningFor !== undefined
          ? { running: { number: props.running.number, seconds: runningFor } }
          : {})}
        columns={props.columns}
        lines={layout.header}
      />
      <FindingsPanel round={round} maxLines={layout.findings} columns={props.columns} />
      {layout.filter > 0 ? (
        <Box>
          <Text color={hue('cyan')}>/</Text>
          {mode === 'filter' ? (
            <FilterLine
              line={{ text: filter, cursor: Math.min(filterCursor, filter.length) }}
              completion={completionOf(filter, typeNames)}
            />
          ) : (
            <Text>{filter}</Text>
          )}
        </Box>
      ) : null}
      <Box height={bodyHeight} flexDirection="column" overflowY="hidden">
        {mode === 'help' ? (
          <Help scroll={scroll} height={bodyHeight} />
        ) : mode === 'detail' ? (
          <Detail lines={detail} scroll={scroll} height={bodyHeight} />
        ) : mode === 'controller' ? (
          <Detail lines={opened} scroll={scroll} height={bodyHeight} />
        ) : mode === 'findings' ? (
          <Detail lines={findings} scroll={scroll} height={bodyHeight} />
        ) : (
          <ResourceList
            groups={groups}
            selection={selected}
            height={bodyHeight}
            focused={mode !== 'controllers'}
            columns={props.columns}
          />
        )}
      </Box>
      <ControllersPanel
        controllers={controllers}
        maxLines={layout.controllers}
        focused={mode === 'controllers' || mode === 'controller'}
        selected={Math.min(controller, controllers.length - 1)}
      />
      {layout.footer > 0 ? <Footer mode={mode} /> : null}
    </Box>
  );
}

/** The filter being typed: its text, the cursor on it, the completion dim after it. */
function FilterLine({ line, completion }: { line: EditedLine; completion: string }) {
  if (line.text === '') {
    return (
      <Text>
        <Text inverse>t</Text>
        <Text dimColor>ype, id or label=value</Text>
      </Text>
    );
  }
  const { text, cursor } = line;
  const rest = text.slice(cursor);
  const under = rest === '' ? completion.slice(0, 1) || ' ' : (Array.from(rest)[0] ?? ' ');
  return (
    <Text>
      {text.slice(0, cursor)}
      <Text inverse>{under}</Text>
      {rest === '' ? '' : rest.slice(under.length)}
      <Text dimColor>{rest === '' ? completion.slice(1) : completion}</Text>
    </Text>
  );
}

const DETAIL_COLOR = { added: 'green', removed: 'red', error: 'red', warning: 'yellow' } as const;

function Detail({
  lines,
  scroll,
  height,
}: {
  lines: readonly DetailLine[];
  scroll: number;
  height: number;
}) {
  const hue = useHue();
  return (
    <Box flexDirection="column" height={height}>
      {lines.slice(scroll, scroll + height).map((line, i) => (
        <Text
          key={scroll + i}
          wrap="truncate-end"
          bold={line.style === 'title'}
          dimColor={line.style === 'dim'}
          {...(line.style === 'added' ||
          line.style === 'removed' ||
          line.style === 'error' ||
          line.style === 'warning'
            ? { color: hue(DETAIL_COLOR[line.style]) }
            : {})}
        >
          {line.text === '' ? ' ' : line.text}
        </Text>
      ))}
    </Box>
  );
}

/** The help's lines: the keys, and how to leave it. */
const HELP_LINES: readonly DetailLine[] = [
  { text: 'keys', style: 'title' },
  ...KEYS.map(([key, what]) => ({ text: `  ${key.padEnd(8)} ${what}` })),
  { text: '  esc      back to the resources' },
];

/** The keys, as many as fit from `scroll` on (↑↓ scroll a short terminal's). */
function Help({ scroll, height }: { scroll: number; height: number }) {
  const hidden = HELP_LINES.length - scroll - height;
  if (hidden <= 0) return <Detail lines={HELP_LINES} scroll={scroll} height={height} />;
  return (
    <Box flexDirection="column" height={height}>
      <Detail lines={HELP_LINES} scroll={scroll} height={height - 1} />
      <Text dimColor>{`  ↓ ${hidden + 1} more`}</Text>
    </Box>
  );
}

function Footer({ mode }: { mode: Mode }) {
  const text =
    mode === 'detail' || mode === 'controller' || mode === 'findings'
      ? 'esc back  ↑↓ scroll  q quit'
      : mode === 'filter'
        ? 'enter keep the filter  esc drop it  tab complete  ctrl-u clear  ctrl-c quit'
        : mode === 'controllers'
          ? 'enter open  c / esc back  ↑↓ select  q quit'
          : KEYS.map(
              ([key, what]) => `${key.split(' ')[0] ?? key} ${what.split(' ')[0] ?? what}`,
            ).join('  ');
  return (
    <Text dimColor wrap="truncate-end">
      {text}
    </Text>
  );
}
