import { formatPointer, type Pointer } from '../engine/resource/pointer.js';
import type { ManifestResource } from '../loaders/manifest-resource.js';

/**
 * Where a project's code is running: its config being loaded, its `setup`, or a controller's
 * reconcile (on an item, or a whole-world pass).
 */
export type UserCodeSite =
  /** `file`: the config's display path (the supervisor's findings point at it). */
  | { readonly kind: 'config'; readonly file?: string }
  | { readonly kind: 'setup' }
  | { readonly kind: 'reconcile'; readonly controller: string; readonly pointer?: Pointer };

/**
 * Told when the project's code is entered and when cosi's own work takes over again, so that a
 * supervisor can name what was running when it stopped answering. Each call must be cheap: it
 * runs before every reconcile.
 */
export interface UserCodeMonitor {
  enter(site: UserCodeSite): void;
  /** cosi's own work again (loading manifests, rendering): nothing of the project's runs. */
  leave(): void;
  /**
   * The same as `enter({ kind: 'reconcile', controller, pointer })`, without the object: the
   * runtime's `onReconcileStart`, so a function that needs no `this`.
   */
  readonly reconcile: (controller: string, pointer: Pointer | undefined) => void;
  /**
   * Told the manifests' resources once they are stored, before any controller runs: a supervisor
   * places a fault on a resource at its manifest (see `manifest-places.ts`). `changed`: the
   * resources of the files a watch round changed only, which take the place of those told before.
   */
  readonly manifestsLoaded?: (resources: readonly ManifestResource[], changed?: boolean) => void;
  /**
   * `check --each` starts on the world of `path`: a supervisor says which world a fault stopped
   * (see `KnownFault`).
   */
  readonly worldStarted?: (path: string) => void;
  /**
   * Resolves once what the project's code scheduled to run soon has run (see
   * `scheduled-callbacks.ts`): a run waits for it once its controllers are done, so that a
   * callback that throws fails the run instead of being lost with the worker.
   */
  readonly settled?: () => Promise<void>;
}

/** The site in words: `controller "Spinner" (on VMs.example.org(default/web-1))`. */
export function describeSite(site: UserCodeSite): string {
  switch (site.kind) {
    case 'config':
      return 'the config (while it loaded)';
    case 'setup':
      return "the config's setup";
    case 'reconcile':
      return `controller ${JSON.stringify(site.controller)}${site.pointer ? ` (on ${formatPointer(site.pointer)})` : ''}`;
  }
}
