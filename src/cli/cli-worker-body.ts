/**
 * What the worker a project command runs in does (see `supervised-cli.ts`): the whole command,
 * the project's config and controllers with it, its output sent to the main thread as text.
 * The worker's entry (`cli-worker.ts`) loads this module, with all it imports, as one script
 * compiled with a V8 code cache (`dist/cli/cli-worker-body.cjs`, see `cached-script.ts`).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { withProcessExitGuard } from '../app/process-exit-guard.js';
import { manifestPlaces } from '../app/manifest-places.js';
import { heartbeatWriter } from '../app/user-code-heartbeat.js';
import { trackScheduledCallbacks } from '../app/scheduled-callbacks.js';
import type { WatchFiles } from '../app/file-events.js';
import type { CliIo } from './io.js';
import { useConfigLoader } from '../loaders/load-config.js';
import { providePreparseSource } from '../loaders/preparsed-manifests.js';
import { SharedParses } from './parse-sharing.js';
import { loadJitiWithCodeCache, saveJitiCache } from './cached-jiti.js';
import { limitHeapGrowthOnceCollected } from './heap-growth.js';
import { runCli } from './program.js';
import { stderrJoinsStdout } from './shared-output.js';
import { nameFormFile } from './name-form-file.js';
import { keepNameFormsIn } from '../engine/resource/name-forms.js';
import type { CliWorkerData, FromWorker, OutputChunk, ToWorker } from './worker-messages.js';

/** What the worker's entry asks of the run. */
export interface CliWorkerHooks {
  /**
   * Called when the command has finished, before the main thread hears of it (it then stops the
   * worker): the entry saves its code cache there, with every function the command compiled.
   * Not called when the run changed V8's flags (see `limitHeapGrowthOnceCollected`): V8 would
   * refuse that cache in the next run, which starts with the flags unchanged.
   */
  readonly finished?: () => void;
  /**
   * Where a file kept beside the code cache goes (see `CachedScript.sideFile`): the forms of the
   * type names met (`name-forms.json`, see `keepNameFormsIn`).
   */
  readonly sideFile?: (name: string) => string | undefined;
}

/** Runs the command the worker was started with and posts its exit code. */
export async function runCliWorker(hooks: CliWorkerHooks = {}): Promise<void> {
  const port = parentPort;
  if (port === null) throw new Error('cli-worker.ts runs as a worker thread');
  const { heartbeat, data } = workerData as { heartbeat: SharedArrayBuffer; data: CliWorkerData };
  const post = (message: FromWorker): void => {
    port.postMessage(message);
  };
  const names = nameFormFile(hooks.sideFile?.('name-forms.json'));
  keepNameFormsIn(names);

  /**
   * Writes are gathered and sent together, a message per turn of the event loop or per 64 KiB, in
   * the order they were made: a table printed line by line is not a message per line.
   */
  const FLUSH_AT = 1 << 16;
  let chunks: OutputChunk[] = [];
  let pending = 0;
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (chunks.length === 0) return;
    post({ kind: 'output', chunks });
    chunks = [];
    pending = 0;
  };
  const writer =
    (stream: OutputChunk['stream']) =>
    (text: string): boolean => {
      const last = chunks.at(-1);
      if (last?.stream === stream) chunks[chunks.length - 1] = { stream, text: last.text + text };
      else chunks.push({ stream, text });
      pending += text.length;
      if (pending >= FLUSH_AT) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
      return true;
    };

  if (data.parsesAhead === true) {
    // Listened for from the start, and until it comes (the main thread sends it first): the
    // port of the manifests' parses, which the run's reads take instead of parsing the same
    // text again (see `parse-sharing.ts`).
    const listener = (message: ToWorker): void => {
      if (message.kind !== 'preparse-port') return;
      port.off('message', listener);
      providePreparseSource(new SharedParses(message.port));
    };
    port.on('message', listener);
  }

  const readStdin = (): Promise<Uint8Array | string> =>
    new Promise((resolve) => {
      const listener = (message: ToWorker): void => {
        if (message.kind !== 'stdin') return;
        port.off('message', listener);
        resolve(message.input);
      };
      port.on('message', listener);
      post({ kind: 'read-stdin' });
    });

  /** `watch`'s interrupt comes from the main thread, which has the signals and the keys. */
  const onInterrupt = (handler: () => void): (() => void) => {
    const listener = (message: ToWorker): void => {
      if (message.kind === 'interrupt') handler();
    };
    port.on('message', listener);
    return () => port.off('message', listener);
  };

  /** `watch` says what it watches: after a fault, the main thread waits for a change there. */
  const watchFiles: WatchFiles = (roots, onEvent) => {
    post({ kind: 'watching', roots });
    // chokidar is loaded by `watch` alone, not by every command the worker runs.
    const started = import('./watch/file-watcher.js').then(({ watchWithChokidar }) =>
      watchWithChokidar(roots, onEvent),
    );
    return {
      close: async () => (await started).close(),
      ready: started.then((watcher) => watcher.ready),
    };
  };

  const heapGrowth = limitHeapGrowthOnceCollected();
  useConfigLoader(() => loadJitiWithCodeCache());
  const monitor = heartbeatWriter(heartbeat);
  // The project's timers run at the site that set them (see `scheduled-callbacks.ts`).
  const callbacks = trackScheduledCallbacks(monitor);
  const io: CliIo = {
    stdout: { write: writer('stdout') },
    stderr: { write: writer('stderr') },
    cwd: process.cwd(),
    env: process.env,
    isTTY: data.isTTY,
    // The process's descriptors, which the worker shares.
    stderrJoinsStdout: stderrJoinsStdout(),
    monitor: {
      ...callbacks.monitor,
      settled: callbacks.settled,
      manifestsLoaded: (resources, changed) => {
        post({
          kind: 'manifest-places',
          places: manifestPlaces(resources),
          ...(changed ? { changed } : {}),
        });
      },
      worldStarted: (path) => {
        post({ kind: 'check-world', path });
      },
    },
    ...(data.knownFaults === undefined ? {} : { knownFaults: data.knownFaults }),
    ...(data.continues === undefined ? {} : { watchContinues: data.continues }),
    watchRoundStarted: (start) => {
      post({ kind: 'round-start', start });
    },
    onInterrupt,
    watchFiles,
    ...(data.hasStdin ? { readStdin } : {}),
    // Loaded only for the screen: the detail pane's renderer (diff, YAML, explain) with it.
    ...(data.screen
      ? {
          watchScreen: (await import('./ui/remote-watch-screen.js')).remoteWatchScreen(
            post,
            (listener) => {
              port.on('message', listener);
              return () => port.off('message', listener);
            },
          ),
        }
      : {}),
  };
  const exitCode = await withProcessExitGuard(() =>
    runCli([...data.argv], io, data.argv[0] === undefined ? {} : { only: data.argv[0] }),
  );
  monitor.stop();
  heapGrowth.stop();
  flush();
  names.save();
  if (!heapGrowth.limited()) {
    saveJitiCache();
    hooks.finished?.();
  }
  post({ kind: 'done', exitCode });
}
