import { placeOfPointer, type ManifestPlaces } from '../app/manifest-places.js';
import { describeWorkerFault, type WorkerFault } from '../app/worker-fault.js';
import type { Finding } from '../loaders/finding.js';
import { EXIT } from './exit-codes.js';
import { holdOutput } from './held-output.js';
import { useColor, type CliIo, type Terminal } from './io.js';
import type { DetailLine } from './ui/resource-detail.js';
import { rowKey, type ControllerRow, type RoundView, type TypeGroup } from './ui/round-view.js';
import type { RoundStart } from '../app/watch-session.js';
import { installUncaughtErrorTestHook } from './ui/uncaught-error-test-hook.js';
import { createRoundViewDecoder } from './ui/round-view-transfer.js';
import { continuedRound, type WatchContinuation } from './watch/continued-round.js';
import { importWatchScreen } from './watch/import-watch-screen.js';
import { nextChangeIn, startingRoots } from './watch/next-change.js';
import { runWorkerOnce, type ParsedCommand, type WorkerRun } from './worker-run.js';

/** How long an interrupted worker may take to close its session before it is terminated. */
const CLOSE_GRACE_MS = 2000;

const NO_DETAIL: DetailLine[] = [
  { text: '  the session that showed it has stopped', style: 'dim' },
];

/**
 * The full-screen `cosi watch`: the screen (ink, the terminal's keys) on the main thread, the
 * session, with the project's code, in a worker thread that sends each round as plain data. The
 * detail pane asks the worker for a resource's lines (the run's record stays there). When the
 * project's code stops the worker (a loop past `--timeout`, the heap, an exit), the screen shows
 * it as the round's error and finding (at the manifest of the resource it was on), and the first
 * change of the files the session watched starts a new session in a new worker. `q`, Ctrl-C or
 * SIGINT ends it, stuck or not.
 */
export async function superviseWatchScreen(
  argv: readonly string[],
  io: CliIo,
  parsed: ParsedCommand,
  terminal: Terminal,
): Promise<number> {
  let roots: readonly string[] = startingRoots(
    [...((parsed.flags.file as string[] | undefined) ?? []), ...parsed.args],
    io.cwd,
  );
  // Set by the quit handler, between awaits.
  const asked = { quit: false };
  const quitting = (): boolean => asked.quit;
  let current: WorkerRun | undefined;
  let wake = (): void => undefined;
  let last: RoundView | undefined;
  /** The round under way in the current worker, as it started. */
  let started: RoundStart | undefined;
  /**
   * After a fault: the rounds shown before the current worker started (a new worker counts from 1
   * again, the screen goes on from the round the fault stopped), and the files that restarted it.
   */
  let continues: WatchContinuation | undefined;
  let paused = false;
  let nextQuestion = 0;
  const questions = new Map<number, (lines: DetailLine[]) => void>();
  const quit = (): void => {
    asked.quit = true;
    wake();
    const run = current;
    if (run === undefined) return;
    run.post({ kind: 'interrupt' });
    // A session stuck in the project's code cannot close itself.
    setTimeout(() => void run.stop(), CLOSE_GRACE_MS).unref();
  };
  const color = useColor(io, parsed.flags.color as boolean | undefined);
  const { startWatchScreen } = await importWatchScreen(color);
  const screen = startWatchScreen(
    terminal,
    {
      quit,
      togglePause: () => {
        if (current === undefined) return paused;
        paused = !paused;
        current.post({ kind: 'screen-key', key: 'toggle-pause' });
        return paused;
      },
      rerun: () => current?.post({ kind: 'screen-key', key: 'rerun' }),
    },
    {
      stable: parsed.flags.stable === true,
      // `NO_COLOR`, `FORCE_COLOR=0` and `--no-color` hold here as for apply.
      color,
      detailOf: (_round, group, row) => {
        const run = current;
        if (run === undefined) return NO_DETAIL;
        const id = nextQuestion++;
        return new Promise((resolve) => {
          questions.set(id, resolve);
          run.post({ kind: 'detail', id, type: group.type, key: rowKey(row) });
        });
      },
    },
  );
  // Written while the screen is up, output would be drawn over or wiped with it: shown after.
  const held = holdOutput(io);
  const unsubscribe = io.onInterrupt?.(quit, { keys: false });
  const removeTestHook = installUncaughtErrorTestHook(io.env);
  try {
    for (;;) {
      paused = false;
      // Each worker's rounds are sent against its own previous ones.
      const decode = createRoundViewDecoder();
      const run = runWorkerOnce(
        argv,
        held.io,
        () => parsed.timeout,
        (message) => {
          switch (message.kind) {
            case 'round-start':
              started = message.start;
              screen.roundStarted?.(continuedRound(message.start, continues));
              return;
            case 'screen-pending':
              screen.pending?.(message.changed);
              return;
            case 'screen-round':
              started = undefined;
              last = continuedRound(decode(message.round), continues);
              screen.show(last);
              return;
            case 'detail-lines':
              questions.get(message.id)?.(message.lines);
              questions.delete(message.id);
              return;
            case 'watching':
              roots = message.roots;
              return;
            default:
          }
        },
        { screen: true },
      );
      current = run;
      const { exitCode, end, places } = await run.ended;
      current = undefined;
      for (const answer of questions.values()) answer(NO_DETAIL);
      questions.clear();
      if (exitCode !== undefined) return exitCode;
      if (quitting()) return EXIT.ok;
      const fault = describeWorkerFault(end);
      if (fault.kind === 'internal') {
        screen.close();
        io.stderr.write(`cosi: ${fault.message}\n`);
        return EXIT.usage;
      }
      const stopped = faultView(last, fault, places, started && continuedRound(started, continues));
      screen.show(stopped);
      last = stopped;
      started = undefined;
      const waiting = nextChangeIn(roots, io.cwd);
      wake = waiting.close;
      const changed = await waiting.changed;
      if (quitting()) return EXIT.ok;
      continues = { roundsBefore: stopped.number, changed };
    }
  } finally {
    unsubscribe?.();
    removeTestHook();
    screen.close();
    held.release();
  }
}

/**
 * The round a fault stopped, as the screen shows it: the number and trigger it started with, the
 * last round's resources (what ran before) unmarked, nothing counted, the controller at fault
 * running with the fault as its error, the error as the round's status, and a finding at the manifest of the resource the controller was on (else at the config).
 */
function faultView(
  last: RoundView | undefined,
  fault: WorkerFault,
  places: ManifestPlaces | undefined,
  started: RoundStart | undefined,
): RoundView {
  const at = (places && fault.pointer && placeOfPointer(places, fault.pointer)) || {
    file: fault.file ?? '',
    line: 0,
    col: 0,
  };
  const finding: Finding<string> = {
    code:
      fault.kind === 'stuck'
        ? 'not-converged'
        : fault.kind === 'config'
          ? 'config-error'
          : 'controller-failed',
    severity: 'error',
    message: `${fault.kind === 'stuck' ? 'did not converge (max-time): ' : ''}${fault.message}`,
    ...at,
    pointer: '',
  };
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { wallTime, ...before } = last ?? {
    files: 0,
    resources: 0,
    groups: [],
    controllers: [],
    writes: new Map(),
  };
  return {
    ...before,
    number: started?.number ?? (last?.number ?? 0) + 1,
    // Without a start, the round that was stopped: started by a change of the files, after the first.
    trigger: started?.trigger ?? (last ? 'manifests' : 'start'),
    changed: started?.changed ?? [],
    counts: { created: 0, updated: 0, destroyed: 0 },
    cost: { read: 0, parsed: 0 },
    groups: before.groups.map(unmarked),
    controllers: before.controllers.map((c) => stoppedController(c, fault)),
    status: 'error',
    reason: 'the round was stopped: waiting for a file to change to start again',
    findings: [finding],
    lastGoodRunning: false,
  };
}

/**
 * A controller in the round a fault stopped: nothing of the round counted; the one at fault
 * running, with the fault as its last error (Enter in the controllers focus shows it whole).
 */
function stoppedController(controller: ControllerRow, fault: WorkerFault): ControllerRow {
  const counted = {
    name: controller.name,
    reconciles: 0,
    writes: 0,
    errors: 0,
    failingItems: 0,
  };
  if (controller.name !== fault.controller) {
    const { condition, lastError } = controller;
    return { ...counted, condition, ...(lastError !== undefined ? { lastError } : {}) };
  }
  return { ...counted, condition: 'running', lastError: fault.message };
}

/** A group with no row marked: the round that marked them is over. */
function unmarked(group: TypeGroup): TypeGroup {
  if (group.rows.every((row) => row.marker === ' ')) return group;
  return {
    ...group,
    rows: group.rows
      .filter((row) => row.marker !== '-')
      .map((row) => (row.marker === ' ' ? row : { marker: ' ', resource: row.resource })),
  };
}
