import type { Resource } from '../../engine/resource/resource.js';

/** What happened to a resource this round, as talosctl's watch marks it. */
export type ChangeMarker = '+' | '-' | '~' | ' ';

/** One resource row: the resource as it is now (or, destroyed, as it was) and as it was before. */
export interface ResourceRow {
  readonly marker: ChangeMarker;
  readonly resource: Resource;
  /** The previous round's version, for `~` and `-`. */
  readonly previous?: Resource;
}
