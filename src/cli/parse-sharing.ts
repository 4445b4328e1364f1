/**
 * The manifests' parse shared by the two threads of a command run once in a worker (`check`,
 * `apply`, `get`, ...): YAML parsing is most of a large repository's load, and the machine has
 * a core for each thread. The main thread, idle until the worker's output comes, parses the
 * files from the last, and the worker's load from the first; each says which file it starts
 * (`claim`), so that neither parses one the other has started, and they meet in the middle.
 *
 * On the port between them: the main thread sends `claim`, then the file's `parse` (or `skip`
 * when it could not read or parse it), and `done` at the end; the worker sends `claim`. The
 * worker's load is synchronous, so its side reads the port with `receiveMessageOnPort`, and
 * waits (a bounded sleep between looks) only for a file the main thread has started.
 *
 * A parse is taken only if it is of the same text with the same limits
 * (`preparsed-manifests.ts`): sharing changes when a run ends, never what it says.
 */

import { stat } from 'node:fs/promises';
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { nodeFileSystem } from '../loaders/manifest-file-system.js';
import { parseManifest } from '../loaders/parse/parse-manifest.js';
import { toTransfer, type ParseTransfer } from '../loaders/parse-transfer.js';
import type { PreparseSource } from '../loaders/preparsed-manifests.js';
import { readManifestFile } from '../loaders/read-manifest-files.js';
import { walkManifestTree, STDIN_PATH } from '../loaders/walk-manifest-tree.js';
import { ignorePatterns } from '../loaders/ignore-file.js';
import { stringsOf, type ParsedCommand } from './worker-run.js';

/** A message on the port between the threads. */
export type ShareMessage =
  | { readonly kind: 'claim'; readonly file: string }
  | { readonly kind: 'parse'; readonly parse: ParseTransfer }
  | { readonly kind: 'skip'; readonly file: string }
  | { readonly kind: 'done' };

/** How long the worker waits for a file the main thread has started, at most, in ms. */
const MAX_WAIT_MS = 60_000;

/**
 * The largest file the main thread parses: a larger one is the worker's. A run that ends early
 * (a config error) waits for the file under way here before the process ends, so that wait stays
 * short.
 */
export const MAX_SHARED_FILE_BYTES = 4 * 1024 * 1024;

/** The main thread's side of a port: what it posts, and the worker's claims as they come. */
export interface ShareEndpoint {
  postMessage(message: ShareMessage): void;
  on(event: 'message', listener: (message: ShareMessage) => void): unknown;
  close(): void;
  /** True once the run is over: nothing more is parsed. */
  readonly stopped?: boolean;
}

/**
 * The main thread's share: the files `command` names (its paths, with the ignore patterns the
 * run uses, less those the config adds), parsed from the last, each unless the worker claimed it
 * first or it is over {@link MAX_SHARED_FILE_BYTES}; none for a command line that did not parse
 * (`undefined`). Never throws: what cannot be walked, read or parsed is the worker's, which
 * reports it. Says `done` and closes the port at the end, whatever happened.
 */
export async function shareParses(
  command: ParsedCommand | undefined,
  cwd: string,
  port: ShareEndpoint,
): Promise<void> {
  const claimed = new Set<string>();
  port.on('message', (message) => {
    if (message.kind === 'claim') claimed.add(message.file);
  });
  try {
    const paths = (command?.manifestPaths ?? []).filter((p) => p !== STDIN_PATH);
    if (command === undefined || paths.length === 0) return;
    const ignore = await ignorePatterns({ cwd, ignore: stringsOf(command.flags.ignore), paths });
    const { files } = await walkManifestTree(paths, { cwd, ignore });
    for (let i = files.length - 1; i >= 0; i--) {
      // A turn of the event loop: the worker's claims so far come in.
      await new Promise((resolve) => setImmediate(resolve));
      if (port.stopped === true) break;
      const file = files[i];
      if (file === undefined || claimed.has(file.display)) continue;
      try {
        const stats = await stat(file.absolute);
        // A pipe (`-f <(kustomize build)`) is read once, by the run itself.
        if (!stats.isFile() || stats.size > MAX_SHARED_FILE_BYTES) continue;
      } catch {
        continue;
      }
      port.postMessage({ kind: 'claim', file: file.display });
      try {
        const read = await readManifestFile(nodeFileSystem, file);
        if (!('text' in read)) throw new Error('unread');
        const parse = toTransfer(parseManifest(read.text, file.display), read.text);
        port.postMessage({ kind: 'parse', parse });
      } catch {
        port.postMessage({ kind: 'skip', file: file.display });
      }
    }
  } catch {
    // The run walks, reads and parses for itself, and says what went wrong.
  } finally {
    port.postMessage({ kind: 'done' });
    port.close();
  }
}

/** The worker's side of the port: the parses the main thread made, taken as the load asks. */
export class SharedParses implements PreparseSource {
  readonly #parses = new Map<string, ParseTransfer>();
  /** Files the main thread started and has not sent or given up yet. */
  readonly #started = new Set<string>();
  #done = false;

  constructor(
    readonly port: MessagePort,
    /** Sleeps the thread for `ms` (a worker may block; the main thread is not this one). */
    readonly sleep: (ms: number) => void = sleepThread,
    readonly maxWaitMs = MAX_WAIT_MS,
  ) {}

  take(file: string): ParseTransfer | undefined {
    this.#drain();
    if (!this.#parses.has(file) && this.#started.has(file)) this.#await(file);
    const parse = this.#parses.get(file);
    if (parse !== undefined) {
      this.#parses.delete(file);
      return parse;
    }
    // This thread parses it: the main thread is told not to start it.
    if (!this.#done) this.port.postMessage({ kind: 'claim', file } satisfies ShareMessage);
    return undefined;
  }

  /** Waits for a file the main thread started, until it comes, is given up, or too long. */
  #await(file: string): void {
    const until = Date.now() + this.maxWaitMs;
    while (this.#started.has(file) && !this.#done && Date.now() < until) {
      if (!this.#receive()) this.sleep(1);
    }
  }

  #drain(): void {
    while (this.#receive());
  }

  /** Reads one message from the port; false when there was none. */
  #receive(): boolean {
    const received = receiveMessageOnPort(this.port);
    if (received === undefined) return false;
    const message = received.message as ShareMessage;
    switch (message.kind) {
      case 'claim':
        this.#started.add(message.file);
        break;
      case 'parse':
        this.#started.delete(message.parse.file);
        this.#parses.set(message.parse.file, message.parse);
        break;
      case 'skip':
        this.#started.delete(message.file);
        break;
      case 'done':
        this.#done = true;
        this.#started.clear();
        break;
    }
    return true;
  }
}

const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

/** Blocks the thread for `ms` (`Atomics.wait` on a value that never changes). */
function sleepThread(ms: number): void {
  Atomics.wait(SLEEPER, 0, 0, ms);
}
