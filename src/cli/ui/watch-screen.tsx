import chalk from 'chalk';
import { render } from 'ink';
import type { Terminal } from '../io.js';
import { guardTerminal } from './terminal-guard.js';
import type { RoundView } from './round-view.js';
import { WatchApp, type DetailSource, type RoundRunning } from './watch-app.js';
import type { WatchControls, WatchScreen } from './watch-controls.js';

export type { WatchControls, WatchScreen } from './watch-controls.js';

/** Switch to the alternate screen and back: the shell's screen is left as it was. */
const ENTER_ALT_SCREEN = '\u001b[?1049h\u001b[H';
const LEAVE_ALT_SCREEN = '\u001b[?1049l';
/** Shows the cursor, which ink hides while it draws. */
const SHOW_CURSOR = '\u001b[?25h';

/**
 * Starts the ink screen of `cosi watch` on a terminal. It shows "loading" until the first
 * {@link WatchScreen.show}; each round replaces the last; the terminal's size is followed.
 */
export function startWatchScreen(
  terminal: Terminal,
  controls: WatchControls,
  options: {
    readonly stable?: boolean;
    /** Where the detail pane's lines come from (see `WatchAppProps.detailOf`). */
    readonly detailOf?: DetailSource;
    /**
     * `false`: no color (`NO_COLOR`, `FORCE_COLOR=0`, `--no-color`). The screen draws with
     * chalk's shared instance, ink's too, whose level otherwise comes from the terminal alone:
     * without color it is set to the basic level for bold, dim and reverse video (the selected
     * row), and no part of the screen asks for a color.
     */
    readonly color?: boolean;
  } = {},
): WatchScreen {
  const levelBefore = chalk.level;
  if (options.color === false) chalk.level = 1;
  const { stdin } = terminal;
  const stdout = sizedTerminal(terminal.stdout);
  let round: RoundView | undefined;
  let paused = false;
  let pending: readonly string[] = [];
  let running: RoundRunning | undefined;
  const element = () => (
    <WatchApp
      round={round}
      rows={stdout.rows}
      columns={stdout.columns}
      paused={paused}
      pending={pending}
      {...(running ? { running } : {})}
      stable={options.stable === true}
      color={options.color !== false}
      onQuit={() => controls.quit()}
      onTogglePause={() => {
        paused = controls.togglePause();
        pending = [];
        instance.rerender(element());
      }}
      onRerun={() => controls.rerun()}
      {...(options.detailOf ? { detailOf: options.detailOf } : {})}
    />
  );
  stdout.write(ENTER_ALT_SCREEN);
  const instance = render(element(), {
    stdout,
    stdin,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  // Killed (SIGTERM, SIGHUP) or crashed, the view cannot unmount: leave the terminal as it was.
  const releaseGuard = guardTerminal(() => {
    if (stdin.isTTY) stdin.setRawMode(false);
    stdout.write(LEAVE_ALT_SCREEN + SHOW_CURSOR);
  });
  const onResize = (): void => instance.rerender(element());
  stdout.on('resize', onResize);
  let closed = false;
  return {
    show(next) {
      if (closed) return;
      round = next;
      pending = [];
      running = undefined;
      instance.rerender(element());
    },
    roundStarted(start) {
      if (closed) return;
      running = { number: start.number, since: Date.now() };
      instance.rerender(element());
    },
    pending(changed) {
      if (closed) return;
      pending = changed;
      instance.rerender(element());
    },
    close() {
      if (closed) return;
      closed = true;
      stdout.off('resize', onResize);
      releaseGuard();
      instance.unmount();
      stdout.write(LEAVE_ALT_SCREEN);
      chalk.level = levelBefore;
    },
  };
}

/** The size a terminal that reports none (0 by 0: a container's pseudo-terminal) is drawn at. */
const FALLBACK_SIZE = { columns: 80, rows: 24 } as const;

/**
 * `stdout` as ink and the view read it, with a size: a terminal that says it has 0 columns would
 * have every character drawn on a line of its own. Everything else is the stream's own.
 */
export function sizedTerminal(stdout: NodeJS.WriteStream): NodeJS.WriteStream {
  if (stdout.columns > 0 && stdout.rows > 0) return stdout;
  return new Proxy(stdout, {
    get(target, property) {
      if (property === 'columns')
        return target.columns > 0 ? target.columns : FALLBACK_SIZE.columns;
      if (property === 'rows') return target.rows > 0 ? target.rows : FALLBACK_SIZE.rows;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}
