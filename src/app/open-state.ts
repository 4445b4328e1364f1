import { createInMemoryState } from '../engine/state/in-memory-state.js';
import type { State } from '../engine/state/state.js';
import { StateUrlError, type StateLocation } from './state-url.js';

/** A state opened from a {@link StateLocation}; `close` releases its connection. */
export interface OpenedState {
  readonly state: State;
  readonly location: StateLocation;
  close(): Promise<void>;
}

/**
 * Opens the state a `--state` URL names: a fresh in-memory one (on the wall clock), or the
 * state shared on etcd under the URL's prefix.
 *
 * @throws StateUrlError when the state cannot be opened.
 */
export function openState(location: StateLocation): Promise<OpenedState> {
  if (location.kind === 'memory') {
    return Promise.resolve({
      state: createInMemoryState(),
      location,
      close: () => Promise.resolve(),
    });
  }
  return Promise.reject(
    new StateUrlError('etcd states are not available in this build yet: use --state memory'),
  );
}
