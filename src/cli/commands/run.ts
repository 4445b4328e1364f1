import { hostname } from 'node:os';
import { defineRun } from './run-definition.js';
import { OpsAddressError, type OpsServer } from '../../app/ops-server.js';
import { RunHealth } from '../../app/run-health.js';
import { RunMetrics, type StateFigures } from '../../app/run-metrics.js';
import type { QueueWorkload } from '../../engine/runtime/queue-metrics.js';
import { ServeRefusal } from '../../app/serve-refusal.js';
import {
  serveRuntime,
  type RuntimeFault,
  type ServeRequest,
  type ServedRuntime,
} from '../../app/served-runtime.js';
import { formatStateLocation } from '../../app/state-url.js';
import { formatDuration } from '../../app/format-duration.js';
import { toError } from '../../engine/errors.js';
import { ETCD_MAX_REQUEST_BYTES } from '../../state-etcd/etcd-state.js';
import { renderedAlready, type CliCommand, type CommandResult } from '../command.js';
import { CliError, EXIT, SIGNAL_EXIT, type ExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { createRunLog, type RunLog } from '../run/run-log.js';
import { joinRunElection, type RunCandidacy } from '../run/run-candidacy.js';
import {
  counted,
  describeApply,
  logFault,
  logFindings,
  logTooLarge,
} from '../run/run-log-lines.js';
import {
  watchRuntime,
  type BegunStart,
  type RuntimeStart,
  type RuntimeWatch,
} from '../run/watch-runtime.js';
import { errorCode } from '../run/run-worker-messages.js';
import { planRun, type RunFlags } from '../run/run-plan.js';
import { startEndpoints } from '../run/run-endpoints.js';
import { watchWithChokidar, type WatchFiles } from '../watch/file-watcher.js';

/**
 * Writes in flight at once on etcd, the manifests' and each generic controller's: enough for
 * etcd to batch them (a bare loop on loopback gains little past it), few enough to bound what
 * one apply holds open.
 */
const ETCD_WRITES_IN_FLIGHT = 32;

/** `cosi run -f DIR --state URL`: a long-lived runtime on a (shared) state. */
export const runCommand: CliCommand<[string[], RunFlags]> = {
  define: defineRun,
  run: (io, paths, flags) => runRuntime(io, paths, flags),
  // Long-running: it logs as it goes (applies, leadership, controllers) and has no data at the end.
  render: renderedAlready,
};

type Ending =
  | { readonly kind: 'signal'; readonly signal: keyof typeof SIGNAL_EXIT }
  | { readonly kind: 'lost'; readonly error: Error }
  | { readonly kind: 'failed'; readonly error: Error }
  | { readonly kind: 'fault'; readonly fault: RuntimeFault };

/**
 * Runs until a signal, a lost leadership, a failed start of the leader's controllers or a fault
 * of the project's code that stopped the thread it runs in (see `serveInWorker`: a loop that
 * never yields, the heap exhausted; logged with the controller and the resource, exit 1). A
 * start that cannot go on (etcd unreachable, another project's state, an address in use) is one
 * line and exit 2; a second signal ends the process at once.
 */
export async function runRuntime(
  io: CliIo,
  paths: string[],
  flags: RunFlags,
  watchFiles: WatchFiles = watchWithChokidar,
): Promise<CommandResult> {
  const after = { lingering: false };
  const result = await serveUntilEnded(io, paths, flags, watchFiles, after);
  // etcd did not answer the stop: the client's streams to it (the lease's keep-alive, the
  // watches) have no deadline and would keep the process alive. The stop is over: it ends now.
  if (after.lingering) io.exit?.(result.exitCode);
  return result;
}

async function serveUntilEnded(
  io: CliIo,
  paths: string[],
  flags: RunFlags,
  watchFiles: WatchFiles,
  after: { lingering: boolean },
): Promise<CommandResult> {
  const {
    files,
    location,
    ttl,
    requestTimeout,
    connectTimeout,
    logFormat,
    timeout,
    ignored,
    loading,
  } = planRun(paths, flags);
  const { onInterrupt } = io;
  if (onInterrupt === undefined) {
    throw new CliError('run serves until interrupted, and this process cannot be');
  }
  const log = createRunLog((line) => void io.stderr.write(line), logFormat);
  if (ignored.length > 0) {
    // A forgotten or mistyped --state would otherwise look honoured.
    log.warn(
      `${ignored.join(', ')}: only for a state on etcd (--state etcd://HOST:PORT[/prefix]); ignored on memory`,
      { code: 'ignored-flag' },
    );
  }
  const identity = `${hostname()}/${process.pid}`;
  const metricsServed = flags.metricsAddr !== undefined && flags.metricsAddr !== '0';
  const where = formatStateLocation(location);
  const health = new RunHealth();

  let end!: (ending: Ending) => void;
  let ending: Ending | undefined;
  const ended = new Promise<Ending>((resolve) => (end = resolve));
  const onSignal = (signal: keyof typeof SIGNAL_EXIT): void => {
    if (ending?.kind === 'signal') {
      const again = signal === ending.signal ? 'again' : `after ${ending.signal}`;
      log.warn(`${signal} ${again}: exiting now, without finishing the stop`);
      io.exit?.(SIGNAL_EXIT[signal]);
      return;
    }
    ending ??= { kind: 'signal', signal };
    end(ending);
  };
  const finish = (why: Ending): void => {
    ending ??= why;
    end(ending);
  };
  /** Whether the run is ending (read after an await, where it may have begun to). */
  const endingNow = (): boolean => ending !== undefined;
  const unsubscribe = [
    onInterrupt(() => onSignal('SIGINT'), { keys: false }),
    io.onTerminate?.(() => onSignal('SIGTERM')) ?? (() => undefined),
    io.onHangup?.(() => onSignal('SIGHUP')) ?? (() => undefined),
  ];
  // Signal handlers keep no process alive: without a watcher or a listening port, nothing would.
  const keepAlive = setInterval(() => undefined, 1 << 30);

  let election: RunCandidacy | undefined;
  /** When this process began to lead (performance.now()), 0 while it has not. */
  let leadingSince = 0;
  /** When `--watch` last applied a change (0: not yet). */
  let appliedSince = 0;
  let served: ServedRuntime | undefined;
  let started = false;
  /** `--watch`: the files watched, and a restart's runtime loading (ended with the run). */
  let watch: RuntimeWatch | undefined;
  const servers: OpsServer[] = [];
  /**
   * Stops the runtime that runs and closes its election, releasing it unless leadership was
   * `lost`; true when etcd kept something this process should not linger on. A leader that lost
   * its lease must stop before another process leads: within a third of the TTL (it noticed at
   * two thirds), and it asks etcd nothing more. A clean stop may take the request timeout.
   */
  const stopServing = async (lost: boolean): Promise<boolean> => {
    const runtime = served;
    const candidate = election;
    served = undefined;
    election = undefined;
    const bound = lost ? Math.max(100, Math.floor((ttl * 1000) / 3)) : requestTimeout;
    const stoppedInTime = await Promise.race([
      (runtime?.stop() ?? Promise.resolve()).then(
        () => true,
        (error: unknown) => {
          log.error(`stopping failed: ${toError(error).message}`);
          return true;
        },
      ),
      new Promise<false>((resolve) => setTimeout(resolve, bound, false).unref()),
    ]);
    if (!stoppedInTime) {
      log.warn(`the controllers did not stop within ${formatDuration(bound)}`);
      await runtime?.abandon();
    }
    return (await candidate?.leave(lost, leadingSince > 0)) ?? false;
  };
  try {
    // What the metrics read of the runtime: asked for at each scrape (see `scrapeFigures`).
    let figures = new Map<string, QueueWorkload>();
    let names: readonly string[] = [];
    let stateFigures: StateFigures | undefined;
    /**
     * The state's counts of the runtimes a `--watch` restart stopped: each runtime opens the
     * state anew, its counts from 0, and the counters served go on from these.
     */
    let stateBefore: StateFigures = NO_STATE_FIGURES;
    /** The runtime being retired for a restart: what it answers a scrape now is not served. */
    let retiring: ServedRuntime | undefined;
    let problems: readonly string[] = [];
    const metrics = new RunMetrics({
      controllers: () => names,
      workload: (name) => figures.get(name),
      leading: () => health.phase === 'leading',
      ...(location.kind === 'etcd'
        ? { state: () => addStateCounts(stateBefore, stateFigures ?? NO_STATE_FIGURES) }
        : {}),
    });
    const scrapeFigures = async (): Promise<void> => {
      const runtime = served;
      if (runtime === undefined) return;
      const now = await runtime.figures();
      if (runtime === retiring) return;
      names = now.controllers.map((c) => c.name);
      figures = new Map(now.controllers.map((c) => [c.name, c]));
      stateFigures = now.state;
      problems = now.problems ?? [];
    };
    /** Keeps the state's counts of the runtime a restart is about to stop. */
    const retireStateCounts = async (): Promise<void> => {
      const runtime = served;
      if (runtime === undefined || location.kind !== 'etcd' || !metricsServed) return;
      retiring = runtime;
      const last = await runtime.figures().catch(() => undefined);
      stateBefore = addStateCounts(stateBefore, last?.state ?? stateFigures ?? NO_STATE_FIGURES);
      stateFigures = undefined;
    };
    await startEndpoints(flags, health, metrics, scrapeFigures, () => problems, servers, log);

    const request: ServeRequest = {
      files,
      // Given no paths, those the config names (and it must name some).
      ...(files.length === 0 ? { requireManifests: true } : {}),
      cwd: io.cwd,
      location,
      stateName: where,
      requestTimeout,
      connectTimeout,
      identity,
      verbose: flags.verbose === true,
      timeout,
      ...loading,
      ...(location.kind === 'etcd'
        ? { maxRequestBytes: ETCD_MAX_REQUEST_BYTES, writesInFlight: ETCD_WRITES_IN_FLIGHT }
        : {}),
      // The queues are timed only for a metrics endpoint to serve.
      ...(metricsServed ? { queueMetrics: true } : {}),
    };
    // The project's code in a supervised worker thread, unless the caller runs it in its own
    // (a test on the sources).
    const serve = io.isolateUserCode
      ? (await import('../run/supervised-runtime.js')).serveInWorker
      : serveRuntime;

    /** The runtime's starts: the first, and each `--watch` restart. */
    let generation = 0;
    /** The last start being stopped for a restart: nothing it says after is heard. */
    let retired = 0;
    /**
     * Starts the runtime, with an election of its own on etcd: what it says of its election and
     * leadership is logged once `announce` is called (after its start is), and only while it is
     * the latest start. `gated` (a `--watch` restart): it loads the project beside the runtime
     * that runs, and goes no further (nothing applied, no campaign) until `take` makes it the
     * runtime that runs; `loading` says how the load went, `discard` ends it instead.
     */
    const startServing = (gated: boolean): RuntimeStart<Ending> => {
      /** Its start's number once taken (0 before). */
      let current = 0;
      const isCurrent = (): boolean => current > 0 && current === generation && current > retired;
      let loadFault: RuntimeFault | undefined;
      let onLoaded!: () => void;
      const loaded = new Promise<void>((resolve) => (onLoaded = resolve));
      let goOn!: () => void;
      let stay!: (error: Error) => void;
      const gate = new Promise<void>((resolve, reject) => {
        goOn = resolve;
        stay = reject;
      });
      gate.catch(() => undefined);
      const candidate =
        location.kind === 'etcd'
          ? joinRunElection({
              endpoint: location.endpoint,
              prefix: location.prefix,
              ttl,
              identity,
              requestTimeout,
              log,
              health,
              heard: () => ending === undefined && isCurrent(),
              lost: (error) => finish({ kind: 'lost', error }),
              announced: (then) => said(then),
            })
          : undefined;
      // What the runtime says of its leadership is logged after its start is.
      let announce!: () => void;
      const announced = new Promise<void>((resolve) => (announce = resolve));
      const said = (then: () => void): void =>
        void announced.then(() => {
          if (isCurrent()) then();
        });
      const runtime = serve(request, {
        counts: metrics,
        onLog: (record) => log.record(record),
        loaded: () => {
          onLoaded();
          return gate;
        },
        ...(candidate
          ? { elect: (signal, fingerprint) => candidate.elect(signal, fingerprint) }
          : {}),
        onLeading: (controllers) =>
          said(() => {
            health.leading();
            leadingSince = performance.now();
            log.info(
              `${candidate ? 'elected leader' : 'leading'}: running ${counted(controllers, 'controller')}`,
            );
          }),
        onConverged: (failing) =>
          said(() => {
            if (health.phase !== 'leading') return;
            health.converged();
            // The first convergence is timed from the lead, one after a re-apply from the apply.
            const took = formatDuration(performance.now() - Math.max(leadingSince, appliedSince));
            // Settled with failing controllers is not converged (`cosi apply` exits 1 for it).
            if (failing.length === 0) log.info(`converged in ${took}`);
            else log.warn(`settled in ${took}, not converged: ${failing.join('; ')}`);
          }),
        onLeadFailed: (error) => said(() => finish({ kind: 'failed', error })),
        onFault: (fault) => {
          if (isCurrent()) finish({ kind: 'fault', fault });
          else if (current === 0) loadFault = fault;
        },
      });
      const starting = runtime.started.catch((error: unknown) => {
        if (error instanceof ServeRefusal) throw error;
        // The state is unreachable or refused the manifests: said in one line, not a stack.
        throw new CliError(`could not start on ${where}: ${toError(error).message}`, EXIT.findings);
      });
      // A signal while starting (etcd slow or silent) ends the start: nothing waits for it.
      const outcome = Promise.race([
        starting.then((begun) => ({ begun })),
        ended.then((early) => ({ early })),
      ]);
      // A discarded start fails with nobody left to hear it.
      outcome.catch(() => undefined);
      const loading = Promise.race([loaded.then(() => ({ loaded: true }) as const), outcome]);
      loading.catch(() => undefined);
      const take = (): void => {
        current = ++generation;
        served = runtime;
        election = candidate;
        goOn();
      };
      let discarded: Promise<void> | undefined;
      const discard = (): Promise<void> =>
        (discarded ??= (async () => {
          stay(new Error('the runtime it was to replace runs on'));
          // It applied nothing and never campaigned: its thread ends, whatever it is doing.
          await Promise.race([
            runtime.stop().catch(() => undefined),
            new Promise((resolve) => setTimeout(resolve, requestTimeout).unref()),
          ]);
          await runtime.abandon();
          await candidate?.withdraw();
        })());
      if (!gated) take();
      return { loading, take, discard, fault: () => loadFault, outcome, announce };
    };

    /** Says a start that began: where, what it applied; then what it says of its leadership. */
    const sayStarted = (begun: BegunStart, announce: () => void): void => {
      log.info(`started as ${identity} on ${where}` + (election ? ` (lease TTL ${ttl}s)` : ''));
      log.info(describeApply(begun.applied));
      logTooLarge(log, io.cwd, begun.skipped);
      health.following();
      announce();
    };

    /**
     * When the first start began to read the files (ms since the epoch, to the µs): a save from
     * then on, which the file watcher may not have been ready to hear, is applied.
     */
    const readSince = performance.timeOrigin + performance.now();
    const first = startServing(false);
    const start = await first.outcome;
    if ('early' in start) return stopBeforeStart(start.early, log);
    if (start.begun.kind !== 'started') {
      if (start.begun.kind === 'refused') logFindings(log, io.cwd, start.begun.findings);
      log.error('not started: the manifests have errors', { code: 'invalid-manifests' });
      return { exitCode: EXIT.findings, result: undefined };
    }
    started = true;
    sayStarted(start.begun, first.announce);
    if (flags.watch) {
      watch = watchRuntime<Ending>({
        cwd: io.cwd,
        log,
        health,
        location,
        watchFiles,
        first: start.begun,
        running: () => served,
        ending: endingNow,
        applying: () => {
          appliedSince = performance.now();
        },
        load: () => startServing(true),
        stop: async () => {
          await retireStateCounts();
          retired = generation;
          if (await stopServing(false)) after.lingering = true;
        },
        sayStarted,
        since: readSince,
      });
    }
    const why = await ended;
    health.stopping();
    if (why.kind === 'fault') logFault(log, why.fault);
    log.log(why.kind === 'signal' ? 'info' : 'error', `shutting down (${describeEnding(why)})`, {
      ...(why.kind === 'lost' ? { code: 'leadership-lost' } : {}),
      ...(why.kind === 'failed' ? { code: errorCode(why.error) ?? 'lead-failed' } : {}),
    });
    if (why.kind === 'failed' && why.error instanceof ServeRefusal) {
      log.error(why.error.message, { code: why.error.code });
      return { exitCode: EXIT.usage, result: undefined };
    }
    return { exitCode: exitCodeOf(why), result: undefined };
  } catch (error) {
    // What keeps it from starting is one log line, in the log's format, and an exit code.
    const refusal = startRefusal(error);
    if (refusal === undefined) throw error;
    log.error(refusal.message, { code: refusal.code });
    return { exitCode: refusal.exitCode, result: undefined };
  } finally {
    // No apply or restart begins once the watcher closes; one under way ends with the runtime
    // it is on (a restart's start ends at the ending): waited for after the stop, which is
    // bounded for a leader that lost its lease.
    const closing = watch?.watcher.close();
    if (await stopServing(ending?.kind === 'lost')) after.lingering = true;
    await watch?.discardLoading();
    const closed = await Promise.race([
      closing?.then(() => true) ?? true,
      new Promise<false>((resolve) => setTimeout(resolve, requestTimeout, false).unref()),
    ]);
    if (!closed) log.warn(`the file watcher did not stop within ${formatDuration(requestTimeout)}`);
    await Promise.all(servers.map((s) => s.close()));
    clearInterval(keepAlive);
    if (started) log.info('stopped');
    for (const off of unsubscribe) off();
  }
}

/** The state's figures before the runtime answered once. */
const NO_STATE_FIGURES: StateFigures = {
  requests: 0,
  reads: 0,
  writes: 0,
  failedRequests: 0,
  inFlight: 0,
  watches: 0,
};

/** The state's counts of two runtimes added up; the figures of now (in flight, watches) are `now`'s. */
function addStateCounts(before: StateFigures, now: StateFigures): StateFigures {
  return {
    requests: before.requests + now.requests,
    reads: before.reads + now.reads,
    writes: before.writes + now.writes,
    failedRequests: before.failedRequests + now.failedRequests,
    inFlight: now.inFlight,
    watches: now.watches,
  };
}

/**
 * Why the run could not start, when it is not a bug: 2 (usage) for what the operator must fix
 * before trying again (etcd not there, another project's state, an address in use, the config),
 * or the code a CliError carries.
 */
function startRefusal(
  error: unknown,
): { readonly message: string; readonly code: string; readonly exitCode: ExitCode } | undefined {
  if (error instanceof ServeRefusal || error instanceof OpsAddressError) {
    return { message: error.message, code: error.code, exitCode: EXIT.usage };
  }
  if (error instanceof CliError) {
    return { message: error.message, code: 'start-failed', exitCode: error.exitCode };
  }
  return undefined;
}

/** A signal (or a failure) came before the project started: nothing to stop but the start. */
function stopBeforeStart(ending: Ending, log: RunLog): CommandResult {
  if (ending.kind === 'fault') logFault(log, ending.fault);
  log.info(`shutting down (${describeEnding(ending)}) before it started`);
  return { exitCode: exitCodeOf(ending), result: undefined };
}

function exitCodeOf(ending: Ending): ExitCode {
  switch (ending.kind) {
    case 'signal':
      return EXIT.ok;
    case 'lost':
      return EXIT.leadershipLost;
    case 'failed':
    case 'fault':
      return EXIT.findings;
  }
}

function describeEnding(ending: Ending): string {
  switch (ending.kind) {
    case 'signal':
      return ending.signal;
    case 'lost':
      return `lost leadership: ${ending.error.message}; exiting with ${EXIT.leadershipLost} to be restarted`;
    case 'failed':
      return `could not lead: ${ending.error.message}`;
    case 'fault':
      return `the controllers' worker thread stopped; exiting with ${EXIT.findings} to be restarted`;
  }
}
