import type { KnownFault } from '../app/check/fault-cases.js';
import type { ManifestPlaces } from '../app/manifest-places.js';
import type { DetailLine } from './ui/resource-detail.js';
import type { RoundViewTransfer } from './ui/round-view-transfer.js';
import type { RoundStart } from '../app/watch-session.js';
import type { WatchContinuation } from './watch/continued-round.js';
import type { MessagePort } from 'node:worker_threads';

/**
 * What crosses between `cosi` and the worker that runs a command on a project: the worker's
 * output, as text in the order it was written (the renderers run beside the run they print, so
 * what crosses is what is printed, not the run's state), its exit code at the end, and the
 * standard input on request.
 */
export type FromWorker =
  | { readonly kind: 'output'; readonly chunks: readonly OutputChunk[] }
  | { readonly kind: 'read-stdin' }
  | { readonly kind: 'done'; readonly exitCode: number }
  /** `watch` watches these files (absolute paths). */
  | { readonly kind: 'watching'; readonly roots: readonly string[] }
  /**
   * Where the run's manifest resources are, once loaded: a fault on one is placed there.
   * `changed`: those of the files a watch round changed, on top of the places sent before.
   */
  | {
      readonly kind: 'manifest-places';
      readonly places: ManifestPlaces;
      readonly changed?: boolean;
    }
  /** `watch` starts a round: a fault that stops it is shown as this round. */
  | { readonly kind: 'round-start'; readonly start: RoundStart }
  /** `check --each` starts checking the world of this path (a fault is then in it). */
  | { readonly kind: 'check-world'; readonly path: string }
  /** The full-screen `watch` is paused, and these files changed since (display paths). */
  | { readonly kind: 'screen-pending'; readonly changed: readonly string[] }
  /** A round of the full-screen `watch`, against the one before (see `round-view-transfer.ts`). */
  | { readonly kind: 'screen-round'; readonly round: RoundViewTransfer }
  /** The answer to a `detail` question. */
  | { readonly kind: 'detail-lines'; readonly id: number; readonly lines: DetailLine[] };

/** Text written to one of the streams. */
export interface OutputChunk {
  readonly stream: 'stdout' | 'stderr';
  readonly text: string;
}

export type ToWorker =
  | { readonly kind: 'stdin'; readonly input: Uint8Array | string }
  /**
   * The port on which the main thread sends the parses of the manifests the command line names
   * (see `parse-sharing.ts`): sent once, first, to a worker started with `parsesAhead`.
   */
  | { readonly kind: 'preparse-port'; readonly port: MessagePort }
  /** The user asked a long-running command (`watch`) to stop. */
  | { readonly kind: 'interrupt' }
  /** A key of the full-screen `watch`: `p` (pause or resume), `r` (re-run). */
  | { readonly kind: 'screen-key'; readonly key: 'toggle-pause' | 'rerun' }
  /** The detail pane asks for the resource `key` of `type` in the last round shown. */
  | { readonly kind: 'detail'; readonly id: number; readonly type: string; readonly key: string };

/** What the worker is started with. */
export interface CliWorkerData {
  /** The worker's code, the script its entry runs (`dist/cli/cli-script.cjs`). */
  readonly script: string;
  readonly argv: readonly string[];
  readonly isTTY: boolean;
  readonly hasStdin: boolean;
  /** A full-screen `watch`: the main thread draws it (see `remote-watch-screen.ts`). */
  readonly screen?: boolean;
  /** The main thread shares the parse of the named manifests (`preparse-port`). */
  readonly parsesAhead?: boolean;
  /** `check` run again after its project's code stopped a worker (see `KnownFault`). */
  readonly knownFaults?: readonly KnownFault[];
  /** `watch` started again after a fault: its rounds follow those shown before. */
  readonly continues?: WatchContinuation;
}
