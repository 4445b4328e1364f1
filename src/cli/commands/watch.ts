import { defineWatch } from './watch-definition.js';
import { renderedAlready, type CliCommand, type CommandResult } from '../command.js';
import { CliError, EXIT } from '../exit-codes.js';
import { useColor, type CliIo } from '../io.js';
import { parseFormat, toRunOptions, type CommonFlags } from '../options.js';
import { createColors } from '../render/report.js';
import { writeTraceFile, type TraceFlags } from '../trace-file.js';
import { renderRoundLines, roundJson } from '../ui/line-stream.js';
import { createRoundViews } from '../ui/round-view.js';
import { continuedRound } from '../watch/continued-round.js';
import { holdUntilWatching } from '../watch/hold-until-watching.js';
import { importWatchScreen } from '../watch/import-watch-screen.js';
import { watchWithChokidar, type WatchFiles } from '../watch/file-watcher.js';
import { startWatchSession, type WatchRound, type WatchSession } from '../../app/watch-session.js';

export interface WatchFlags extends CommonFlags, TraceFlags {
  namespace?: string;
  type?: string[];
  /** `text` (the screen on a terminal, the line stream elsewhere) or `json` (NDJSON). */
  output?: string;
  /** The line stream even on a terminal. */
  plain?: boolean;
}

/** `cosi watch -f PATH...`: apply, then re-reconcile on every file change, with a live view. */
export const watchCommand: CliCommand<[string[], WatchFlags]> = {
  define: defineWatch,
  run: (io, paths, flags) => watch(io, paths, flags),
  // Long-running: it renders as it goes (rounds, leadership, logs) and has no data at the end.
  render: renderedAlready,
};

/** How rounds are shown: the ink screen, a line stream, or one JSON object per round. */
export type WatchOutput = 'screen' | 'lines' | 'json';

/**
 * Which output a run gets: `-o json` is NDJSON; `--plain`, stdout or stdin not a terminal, or a
 * terminal that says it is dumb (`TERM=dumb`: Emacs' shell, an editor's task pane, which cannot
 * move the cursor or switch screens) is the line stream; otherwise the screen. Decided here,
 * never from `CI` (ink's CI detection does not choose for us).
 */
export function watchOutput(
  io: Pick<CliIo, 'terminal' | 'watchScreen'> & Partial<Pick<CliIo, 'env'>>,
  flags: WatchFlags,
): WatchOutput {
  const format = parseFormat(flags.output ?? 'text', ['text', 'json'] as const);
  if (format === 'json') return 'json';
  const screen =
    (io.terminal !== undefined || io.watchScreen !== undefined) && io.env?.TERM !== 'dumb';
  return flags.plain === true || !screen ? 'lines' : 'screen';
}

/** Runs until interrupted; the files are watched with `watchFiles` (chokidar by default). */
export async function watch(
  io: CliIo,
  paths: string[],
  flags: WatchFlags,
  watchFiles: WatchFiles = io.watchFiles ?? watchWithChokidar,
): Promise<CommandResult> {
  if ([...(flags.file ?? []), ...paths].includes('-')) {
    throw new CliError(
      'watch reads files it can watch: -f - (the standard input) is for one-shot commands',
    );
  }
  const output = watchOutput(io, flags);
  // The screen's resource detail explains from the record; --trace writes it after each round.
  const record = flags.trace !== undefined || output === 'screen';
  // Given no paths, the session reads (and watches) those the config names.
  const options = await toRunOptions(flags, io, { paths, record });
  if (flags.trace !== undefined) {
    await (await import('../output-file.js')).checkOutputPath(flags.trace, io.cwd);
  }
  const onInterrupt = io.onInterrupt;
  if (onInterrupt === undefined) {
    throw new CliError('watch runs until interrupted, and this process cannot be');
  }
  const stable = flags.stable === true;
  const toView = createRoundViews({
    stable,
    query: {
      ...(flags.type !== undefined ? { type: flags.type } : {}),
      ...(flags.namespace !== undefined ? { namespace: flags.namespace } : {}),
    },
  });
  let session: WatchSession | undefined;
  // q may come while the first round runs, before there is a session to close.
  const asked = { quit: false };
  // ink and React load only for the screen: every other command (and the line stream) starts
  // without them.
  const controls = {
    quit: () => {
      asked.quit = true;
      void session?.close();
    },
    togglePause: () => {
      if (!session) return false;
      if (session.paused) session.resume();
      else session.pause();
      return session.paused;
    },
    rerun: () => session?.rerun(),
  };
  // In a worker thread, the main thread draws the screen (`io.watchScreen`).
  const screen =
    output !== 'screen'
      ? undefined
      : io.watchScreen
        ? io.watchScreen(controls, { stable })
        : io.terminal
          ? (await importWatchScreen(useColor(io, flags.color))).startWatchScreen(
              io.terminal,
              controls,
              { stable, color: useColor(io, flags.color) },
            )
          : undefined;
  const colors = createColors(useColor(io, flags.color));
  let traced = Promise.resolve();
  let unknownType: string | undefined;
  const show = (round: WatchRound): void => {
    const recorded = round.project?.record;
    const registry = round.project?.registry;
    if (flags.trace !== undefined && recorded) {
      const file = flags.trace;
      // One write at a time, each the whole session so far.
      traced = traced
        .then(() => writeTraceFile(file, recorded, { cwd: io.cwd, stable, registry }))
        .catch((error: unknown) => {
          io.stderr.write(
            `cosi: --trace: ${error instanceof Error ? error.message : String(error)}\n`,
          );
        });
    }
    const view = toView(round);
    if (round.number === 1 && round.project !== undefined && view.queryError !== undefined) {
      // `-t nope` on a project that loaded: a usage error at start, as `get nope -w` says it.
      unknownType = view.queryError;
      void session?.close();
      asked.quit = true;
      return;
    }
    if (screen) {
      screen.show(view);
      return;
    }
    // After a fault stopped the worker before this one, its rounds' numbers go on.
    const shown = continuedRound(view, io.watchContinues);
    if (output === 'json') io.stdout.write(`${JSON.stringify(roundJson(shown))}\n`);
    else io.stdout.write(renderRoundLines(shown, colors));
  };
  // Round 1 is shown once the files are watched: an edit saved as soon as it shows is seen.
  const rounds = holdUntilWatching(watchFiles, show);
  let unsubscribe = (): void => undefined;
  try {
    session = await startWatchSession({
      ...options,
      watch: rounds.watchFiles,
      onRound: rounds.onRound,
      ...(screen?.roundStarted
        ? { onRoundStart: screen.roundStarted.bind(screen) }
        : io.watchRoundStarted
          ? { onRoundStart: io.watchRoundStarted }
          : {}),
      ...(screen?.pending ? { onPending: screen.pending.bind(screen) } : {}),
    });
    const running = session;
    unsubscribe = onInterrupt(() => void running.close(), { keys: screen === undefined });
    if (asked.quit) void session.close();
    await rounds.release(session.closed);
    await session.closed;
  } finally {
    unsubscribe();
    screen?.close();
    await traced;
  }
  if (unknownType !== undefined) throw new CliError(unknownType);
  return { exitCode: EXIT.ok, result: undefined };
}
