import type { ManifestPlaces } from '../app/manifest-places.js';
import { withProcessExitGuard } from '../app/process-exit-guard.js';
import { describeWorkerFault, type WorkerFault } from '../app/worker-fault.js';
import { faultCases, mayCheckAgain, type KnownFault } from '../app/check/fault-cases.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';
import { timeoutFlag } from './timeout-flag.js';
import { mayBeGetWatch } from './worker-command-names.js';
import { parseCommand, runWorkerOnce, type ParsedCommand, type WorkerRun } from './worker-run.js';

/**
 * Runs the command of `argv` in a worker thread and returns its exit code: the project's config
 * and controllers run there, where a loop that never yields, running out of heap or an exit
 * cannot take cosi down. The worker runs the whole command, its renderer too, and sends its
 * output as text: what crosses is what is printed, so a big run costs no copy of its state
 * between threads. A worker stopped by its supervisor (see `startProjectWorker`) is reported
 * here, in the command's terms: `check` still writes its report in the `-o` format, with the
 * controller at fault; the other commands say it on stderr.
 */
export async function runCliInWorker(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv[0] === 'watch') return runWatch(argv, io);
  if (mayBeGetWatch(argv)) {
    const parsed = await parseCommand(argv);
    if (parsed?.flags.watch === true) return superviseGetWatch(argv, io, parsed);
  }
  const timeout = timeoutFlag(argv);
  return superviseWorkerOnce(
    argv,
    io,
    runWorkerOnce(argv, io, () => timeout),
  );
}

/**
 * The end of a command's run in a worker (see {@link runWorkerOnce}): its exit code, or the
 * fault that stopped it said in the command's terms. The command line is parsed here only for
 * a fault (`check`'s report takes its flags); the worker parsed it for the run.
 *
 * A `check` stopped by its project's code is run again with the fault known (`again`, see
 * `KnownFault`): the world it stopped in is checked without running its controllers, so that
 * the report keeps its manifests' cases beside the fault's, and with `--each` every other world
 * is checked as well. Each world is run again at most once.
 */
export async function superviseWorkerOnce(
  argv: readonly string[],
  io: CliIo,
  run: WorkerRun,
  again: (known: readonly KnownFault[]) => WorkerRun = (known) =>
    runWorkerOnce(argv, io, () => timeoutFlag(argv), undefined, { knownFaults: known }),
): Promise<number> {
  const known: KnownFault[] = [];
  for (let current = run; ;) {
    const end = await current.ended;
    if (end.exitCode !== undefined) return end.exitCode;
    const fault = describeWorkerFault(end.end);
    const parsed = await parseCommand(argv);
    if (
      parsed?.name !== 'check' ||
      !mayCheckAgain(known, fault, end.world, parsed.flags.each === true)
    ) {
      return reportFault(io, fault, parsed, end.places);
    }
    known.push({ ...(end.world === undefined ? {} : { world: end.world }), fault });
    current = again(known);
  }
}

/**
 * `watch`: the session in a worker; its screen (ink, the terminal's keys) on the main thread
 * (see `superviseWatchScreen`), the line stream and NDJSON from the worker (see
 * `superviseWatch`). A command line it refuses is refused on the main thread as before.
 */
async function runWatch(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = await parseCommand(argv);
  const { watchOutput } = await import('./commands/watch.js');
  let output: string | undefined;
  try {
    output = parsed && watchOutput(io, parsed.flags);
  } catch {
    output = undefined;
  }
  if (parsed === undefined || output === undefined) {
    const { runCli } = await import('./program.js');
    return withProcessExitGuard(() => runCli(argv, io));
  }
  if (output === 'screen' && io.terminal !== undefined) {
    const { superviseWatchScreen } = await import('./supervised-watch-screen.js');
    return superviseWatchScreen(argv, io, parsed, io.terminal);
  }
  return (await import('./supervised-watch.js')).superviseWatch(argv, io, parsed);
}

/**
 * `get -w`: in a worker as `watch`'s line stream, for as long as it runs. A fault of the
 * project's code is said on stderr (stdout holds only rows), and the next change of the files
 * starts it again; with `--state` no project runs, and a fault ends it.
 */
async function superviseGetWatch(
  argv: readonly string[],
  io: CliIo,
  parsed: ParsedCommand,
): Promise<number> {
  const { superviseWatch } = await import('./supervised-watch.js');
  const files = (parsed.flags.file as string[] | undefined) ?? [];
  return superviseWatch(argv, io, parsed, {
    paths: files,
    sayFault: (fault) => {
      io.stderr.write(
        fault === undefined
          ? 'cosi: waiting for a file to change to start again\n'
          : `cosi: ${fault.kind === 'stuck' ? 'did not converge (max-time): ' : ''}${fault.message}\n`,
      );
    },
    restart: parsed.flags.state === undefined,
    keys: false,
  });
}

const EXIT_OF: Record<WorkerFault['kind'], ExitCode> = {
  stuck: EXIT.notConverged,
  failed: EXIT.findings,
  config: EXIT.usage,
  internal: EXIT.internal,
};

/** Says what stopped the worker, in the command's output, and returns the exit code. */
async function reportFault(
  io: CliIo,
  fault: WorkerFault,
  parsed: ParsedCommand | undefined,
  places: ManifestPlaces | undefined,
): Promise<number> {
  const exitCode = EXIT_OF[fault.kind];
  if (parsed?.name !== 'check') {
    const prefix = fault.kind === 'stuck' ? 'did not converge (max-time): ' : '';
    const file = fault.kind === 'config' && fault.file !== undefined ? `${fault.file}: ` : '';
    io.stderr.write(`cosi: ${file}${prefix}${fault.message}\n`);
    return exitCode;
  }
  // The check's own renderer, on a report of the one thing known: CI reads the report.
  const { renderCheck } = await import('./commands/check.js');
  await renderCheck(io, { exitCode, result: { check: faultCases(fault, places) } }, parsed.args, {
    ...(parsed.flags as { output: string }),
    trace: undefined,
  });
  return exitCode;
}
