import type { Pointer } from '../engine/resource/pointer.js';
import { formatDuration } from './format-duration.js';
import type { WorkerEnd } from './project-worker.js';
import { describeSite } from './user-code-site.js';

/**
 * A project worker that ended before its command did, in words: what it did, and what it is
 * about. `stuck`: a bound was hit (the run did not converge); `failed`: a controller's fault (a
 * finding); `config`: the config's code, as a configuration error; `internal`: cosi's own.
 */
export interface WorkerFault {
  readonly kind: 'stuck' | 'failed' | 'config' | 'internal';
  readonly message: string;
  /** The controller at fault, when it was one. */
  readonly controller?: string;
  /** The resource it was reconciling, when it was on one. */
  readonly pointer?: Pointer;
  /** The project's config file (display path), where its code comes from. */
  readonly file?: string;
}

/** What a worker's end means for its command (one that ended without a result). */
export function describeWorkerFault(end: WorkerEnd): WorkerFault {
  const site = end.site;
  const kind = site === undefined ? 'internal' : site.kind === 'reconcile' ? 'failed' : 'config';
  const about = {
    ...(site?.kind === 'reconcile' ? { controller: site.controller } : {}),
    ...(site?.kind === 'reconcile' && site.pointer ? { pointer: site.pointer } : {}),
    ...(end.config === undefined ? {} : { file: end.config }),
  };
  switch (end.kind) {
    case 'stuck':
      return {
        kind: kind === 'failed' ? 'stuck' : kind,
        message: `${capitalized(describeSite(end.site))} was still running after ${formatDuration(end.waited)} without ever yielding${end.at ? `, at ${end.at.file}:${end.at.line}:${end.at.col}` : ''} (a loop that does not end?): cosi stopped it`,
        ...about,
      };
    case 'out-of-memory':
      return {
        kind,
        message: `${site ? capitalized(describeSite(site)) : 'cosi'} ran out of memory (the heap limit is ${end.heapMb} MB; COSI_WORKER_HEAP_MB sets it)`,
        ...about,
      };
    case 'exited':
      return {
        kind: site === undefined ? 'internal' : kind,
        message: `${site ? capitalized(describeSite(site)) : "The project's code"} ended cosi's worker thread (exit code ${end.code}): process.exit, or the like, outside cosi's guard`,
        ...about,
      };
    case 'unreadable-message':
      // Only the project's code posts on the worker's port beside cosi (`parentPort`); which part
      // of it is not known (see `startProjectWorker`).
      return {
        kind: 'config',
        message: `The project's code posted a message on the worker's port (parentPort) that cosi cannot read (${end.message}): cosi stopped it`,
        ...about,
      };
    case 'crashed':
      // The project's code threw where nothing awaited it (a timer, an event handler, a promise
      // it dropped): its fault, in one line. Without a site it is cosi's own, with its stack.
      // Once the config is loaded, an error outside any site is still most likely the project's
      // (a timer its module set); before, it can only be cosi's.
      if (site === undefined && end.config === undefined) {
        return {
          kind: 'internal',
          message: `the worker thread failed: ${end.stack ?? end.message}`,
        };
      }
      return {
        kind: site === undefined ? 'config' : kind,
        message: `${site ? capitalized(describeSite(site)) : "The project's code"} threw where nothing awaited it (a timer, an event handler, a promise it did not await): ${end.message}`,
        ...about,
      };
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
