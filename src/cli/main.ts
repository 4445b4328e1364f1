import { withProcessExitGuard } from '../app/process-exit-guard.js';
import type { LaunchedWorker } from '../app/worker-launch.js';
import { limitHeapGrowthOnceCollected } from './heap-growth.js';
import { exitCodeAfterOutput, processIo, teeIo, type OutputTee } from './io.js';
import { timeoutFlag } from './timeout-flag.js';
import { runsInWorker, runsOnceInWorker } from './worker-command-names.js';

/**
 * The command-line entry point. `bin/cosi.js` calls `main` and sets the exit code it returns.
 * The thread that runs the project takes cosi's heap growth step at its first full collection
 * (see {@link limitHeapGrowthOnceCollected}): here for a command run on this thread, in the
 * worker for the others. A project's code that calls `process.exit` gets an error thrown instead
 * (see {@link withProcessExitGuard}): the command's exit code is the one that counts. The commands that run a project once (`apply`,
 * `check`, `get`, `graph`, `explain`) run in a supervised worker thread (see
 * `runCliInWorker`); `run` runs its runtime in one (see `serveInWorker`). `tee` is told what the
 * command prints (the process's entry keeps a help request's text: see `help-memo.ts`).
 */
export async function main(
  argv: readonly string[],
  launched?: LaunchedWorker,
  tee?: OutputTee,
): Promise<number> {
  // A report lost on its way out (`-o junit > /dev/full`) is no pass: exit 2.
  return exitCodeAfterOutput(await runCommand(argv, launched, tee));
}

async function runCommand(
  argv: readonly string[],
  launched: LaunchedWorker | undefined,
  tee: OutputTee | undefined,
): Promise<number> {
  const io = tee === undefined ? processIo() : teeIo(processIo(), tee);
  if (runsOnceInWorker(argv)) {
    // The worker starts first, before its supervisor loads and before the command line is
    // parsed (the worker parses it and runs the command; here the bound on the project's code is
    // read first): its start-up, a Node start of its own, is most of a small command's time.
    // `bin/cosi.js` starts it before this module loads (`launched`, see `early-worker.ts`).
    const timeout = timeoutFlag(argv);
    const run = (await import('./worker-run.js')).runWorkerOnce(
      argv,
      io,
      () => timeout,
      undefined,
      launched === undefined ? {} : { launched },
    );
    // Meanwhile this thread, idle until the worker's output comes, parses the manifests the
    // line names from the last, for the worker to take (see `preparse-manifests.ts`).
    const share = (await import('./preparse-manifests.js')).shareCommandLineParses(argv, io.cwd);
    // (A worker that ended already takes no message: nothing is lost.)
    run.post({ kind: 'preparse-port', port: share.port }, [share.port]);
    const stopSharing = (): void => {
      share.stop();
    };
    void run.ended.then(stopSharing, stopSharing);
    return (await import('./supervised-cli.js')).superviseWorkerOnce(argv, io, run);
  }
  if (runsInWorker(argv)) return (await import('./supervised-cli.js')).runCliInWorker(argv, io);
  limitHeapGrowthOnceCollected();
  const { runCli } = await import('./program.js');
  return withProcessExitGuard(() => runCli(argv, io));
}
