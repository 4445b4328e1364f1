import { displayPath } from '../../app/display-path.js';
import { formatDuration } from '../../app/format-duration.js';
import type { RunHealth } from '../../app/run-health.js';
import { ServeRefusal } from '../../app/serve-refusal.js';
import type { RuntimeFault, ServeStart, ServedRuntime } from '../../app/served-runtime.js';
import type { StateLocation } from '../../app/state-url.js';
import type { Finding } from '../../loaders/finding.js';
import { describeConnectionFailure } from '../../state-etcd/connection-failure.js';
import type { WatchFiles } from '../watch/file-watcher.js';
import { reapplyOnChange, type ReapplyWatcher, type RestartCause } from './reapply-on-change.js';
import { describeApply, logFault, logFindings, logTooLarge } from './run-log-lines.js';
import type { RunLog } from './run-log.js';

/** A start that began: what `cosi run` says of it. */
export type BegunStart = ServeStart & { readonly kind: 'started' };

/**
 * One start of the runtime (see `startServing` in `cosi run`): the first, which runs at once, or
 * a restart's, which loads the project beside the runtime that runs and goes no further (nothing
 * applied, no campaign) until `take` makes it the runtime that runs.
 */
export interface RuntimeStart<Ending> {
  /** How the load went: loaded, refused (the manifests' errors), or the run ended first. */
  readonly loading: Promise<
    { readonly loaded: true } | { readonly early: Ending } | { readonly begun: ServeStart }
  >;
  /** Makes it the runtime that runs: it goes on (applies, campaigns). */
  readonly take: () => void;
  /** Ends it instead: it applied nothing and never campaigned. */
  readonly discard: () => Promise<void>;
  /** What stopped its thread before it was taken (its code loading), if anything did. */
  readonly fault: () => RuntimeFault | undefined;
  /** How the start went, once taken: begun, or the run ended first. */
  readonly outcome: Promise<{ readonly early: Ending } | { readonly begun: ServeStart }>;
  /** Lets it say what it says of its election and leadership (after `sayStarted`). */
  readonly announce: () => void;
}

/** What `cosi run` lends its `--watch`: its log, its health, its runtime's starts and stop. */
export interface WatchedRun<Ending> {
  readonly cwd: string;
  readonly log: RunLog;
  readonly health: RunHealth;
  readonly location: StateLocation;
  readonly watchFiles: WatchFiles;
  /** The first start, which runs. */
  readonly first: BegunStart;
  /** The runtime that runs now; none when a restart's start failed. */
  running(): ServedRuntime | undefined;
  /** Whether the run is ending (read after an await, where it may have begun to). */
  ending(): boolean;
  /** An apply begins (or a restart's): the next convergence is timed from it. */
  applying(): void;
  /** A restart's start: it loads beside the runtime that runs. */
  load(): RuntimeStart<Ending>;
  /**
   * Stops the runtime that runs, hearing nothing more of it (a follower's stop withdraws its
   * campaign, which fails its election: not an ending).
   */
  stop(): Promise<void>;
  /** Says a start that began, then lets it say what it says of its leadership. */
  sayStarted(begun: BegunStart, announce: () => void): void;
  /**
   * When the first start began to read the files (ms since the epoch): what was saved since,
   * before the watcher was ready to hear it, is applied once it is.
   */
  readonly since?: number;
}

/** `cosi run --watch`'s watcher, and the restart's start that is loading, if one is. */
export interface RuntimeWatch {
  readonly watcher: ReapplyWatcher;
  /** Ends the restart's start that loads (or loaded) and did not replace the one that runs. */
  discardLoading(): Promise<void>;
}

/**
 * `cosi run --watch`: applies the manifests again on a change of the files (see
 * `reapplyOnChange`), and restarts the runtime on a change of its code or definitions. A
 * restart loads the changed code first, beside the runtime that runs; only once it loaded is
 * that one stopped and the new one goes on. One whose code does not load (a config saved
 * mid-edit) stops nothing: the last good code keeps running, and the next change restarts.
 */
export function watchRuntime<Ending>(run: WatchedRun<Ending>): RuntimeWatch {
  const { cwd, log, health } = run;
  /** The manifests, and the project's scripts: a script's change starts the runtime again. */
  const watchedOf = (begun: { files: readonly string[]; scripts: readonly string[] }) => [
    ...new Set([...begun.files, ...begun.scripts]),
  ];
  let watched = watchedOf(run.first);
  /** A restart's start, loading beside the runtime that runs. */
  let preparing: RuntimeStart<Ending> | undefined;
  /**
   * The manifests' findings the last restart was refused for: the apply with the last good code
   * that follows it (the manifests changed too) does not say them a second time.
   */
  let refusedRestart: readonly Finding[] = [];
  const sayRefusedRestart = (findings: readonly Finding[]): void => {
    logFindings(log, cwd, findings);
    refusedRestart = findings;
  };
  const discardLoading = async (): Promise<void> => {
    const next = preparing;
    preparing = undefined;
    await next?.discard();
  };

  const restart = async (cause: RestartCause): Promise<boolean> => {
    if (run.ending()) return true;
    refusedRestart = [];
    /** Whether a runtime runs, which keeps running should the new code not load. */
    const running = run.running() !== undefined;
    log.info(describeRestart(cwd, cause, !running), { code: 'restarting' });
    // The changed code loads beside the running one, which stops only once it did.
    const next = run.load();
    preparing = next;
    let load: Awaited<typeof next.loading>;
    try {
      load = await next.loading;
    } catch (error) {
      await discardLoading();
      const fault = next.fault();
      if (fault !== undefined) {
        logFault(log, fault);
        return notRestarted('its code stopped the thread it loaded in', running);
      }
      if (!(error instanceof ServeRefusal)) throw error;
      log.error(error.message, { code: error.code });
      return notRestarted('the config cannot be loaded', running);
    }
    if (!('loaded' in load)) await discardLoading();
    if ('early' in load) return true;
    if ('begun' in load) {
      if (load.begun.kind === 'refused') sayRefusedRestart(load.begun.findings);
      return notRestarted('the manifests have errors', running);
    }
    return takeOver(next);
  };

  /** The loaded runtime `next` replaces the one that runs: that one stops, and it goes on. */
  const takeOver = async (next: RuntimeStart<Ending>): Promise<boolean> => {
    health.restarting();
    run.applying();
    await run.stop();
    // Ended meanwhile: the stop that follows finds nothing started.
    if (run.ending()) {
      await discardLoading();
      return true;
    }
    preparing = undefined;
    next.take();
    let restarted: { readonly early: Ending } | { readonly begun: ServeStart };
    try {
      restarted = await next.outcome;
    } catch (error) {
      // Nothing runs: the start failed on the way.
      await run.stop();
      if (!(error instanceof ServeRefusal)) throw error;
      if (error.code === 'etcd-unreachable') {
        // etcd may come back, and no change of the files would say so: tried again.
        health.down(`${error.message}: trying again`);
        throw new Error(error.message);
      }
      log.error(error.message, { code: error.code });
      return notRestarted('it could not start', false);
    }
    if ('early' in restarted) return true;
    if (restarted.begun.kind !== 'started') {
      if (restarted.begun.kind === 'refused') sayRefusedRestart(restarted.begun.findings);
      await run.stop();
      return notRestarted('the manifests have errors', false);
    }
    run.sayStarted(restarted.begun, next.announce);
    const now = watchedOf(restarted.begun);
    if (now.join('\n') !== watched.join('\n')) {
      // The config imports other modules now: those are watched instead, by the same
      // watcher (what changed during this restart starts it again).
      watched = now;
      watcher.watch(watched);
    }
    return true;
  };

  /**
   * A restart that could not start, said: the runtime that ran keeps running (`running`), or
   * nothing runs until the next change.
   */
  const notRestarted = (why: string, running: boolean): false => {
    if (running) {
      log.error(
        `not restarted: ${why} (the last good code keeps running); it restarts at the next change of the files`,
        { code: 'restart-failed' },
      );
      return false;
    }
    log.error(`not started again: ${why}; it starts again at the next change of the files`, {
      code: 'restart-failed',
    });
    health.down(`${why}: waiting for a change of the files`);
    return false;
  };

  const watcher = reapplyOnChange(
    cwd,
    watched,
    run.watchFiles,
    // The runtime that runs now; none (down) asks for a restart at the next change.
    {
      reapply: () => run.running()?.reapply() ?? Promise.resolve({ definitionsChanged: true }),
    },
    {
      applying: () => run.applying(),
      applied: (counts, skipped) => {
        refusedRestart = [];
        log.info(describeApply(counts));
        logTooLarge(log, cwd, skipped);
      },
      refused: (findings) => {
        const said = refusedRestart;
        refusedRestart = [];
        logFindings(
          log,
          cwd,
          findings.filter((f) => !said.some((s) => sameFinding(s, f))),
        );
        log.error('not applied: the manifests have errors (the last good ones keep running)', {
          code: 'invalid-manifests',
        });
      },
      failed: (error, retryInMs) =>
        log.warn(
          `apply failed: ${describeApplyFailure(error, run.location)} (retrying in ${formatDuration(retryInMs)})`,
        ),
      restart,
    },
    run.since,
  );
  return { watcher, discardLoading };
}

/** Whether two findings are the same one: the same place, code and sentence. */
function sameFinding(a: Finding, b: Finding): boolean {
  return (
    a.file === b.file &&
    a.line === b.line &&
    a.col === b.col &&
    a.code === b.code &&
    a.message === b.message
  );
}

/**
 * Why `--watch` starts the runtime again, as a log line: what changed, and that the controllers
 * start again with it (`down`: the last start failed, and any change starts it again).
 */
function describeRestart(cwd: string, cause: RestartCause, down: boolean): string {
  if (down) return 'the files changed: starting the controllers again (the last start failed)';
  const what: string[] = [];
  if (cause.scripts.length > 0) {
    what.push(`${cause.scripts.map((file) => displayPath(cwd, file)).join(', ')} changed`);
  }
  if (cause.definitions) {
    what.push(
      "the manifests' definitions changed (a CRD, a ResourceDefinition, a kro RGD or a transform)",
    );
  }
  const them = cause.definitions || cause.scripts.length > 1;
  return `${what.join('; ')}: restarting the controllers to load ${them ? 'them' : 'it'}`;
}

/**
 * Why an apply failed, for the log: the etcd client's own text (gRPC's `14 UNAVAILABLE: No
 * connection established. Last error: ...`, its circuit breaker's `Execution prevented ...`)
 * names neither the endpoint nor a cause an operator can act on, and is said as the start says
 * an unreachable etcd (`cannot reach etcd at HOST:PORT: connection refused ...`).
 */
function describeApplyFailure(error: Error, location: StateLocation): string {
  const text = error.message;
  if (location.kind !== 'etcd' || !/^\d+ [A-Z_]+:|circuit breaker/i.test(text)) return text;
  const where = location.endpoint.replace(/^https?:\/\//, '');
  const failure = describeConnectionFailure(error);
  return `cannot reach etcd at ${where}${failure ? `: ${failure.reason}` : ''}`;
}
