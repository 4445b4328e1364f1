import { createInMemoryState } from '../engine/state/in-memory-state.js';
import type { State } from '../engine/state/state.js';
import { createEtcdState, type EtcdState } from '../state-etcd/etcd-state.js';
import type { StateLocation } from './state-url.js';

/** A state opened from a {@link StateLocation}; `close` releases its connection. */
export interface OpenedState {
  readonly state: State;
  readonly location: StateLocation;
  /** The same state, when it is on etcd: its probe and figures. */
  readonly etcd?: EtcdState;
  close(): Promise<void>;
}

/**
 * Opens the state a `--state` URL names: a fresh in-memory one (on the wall clock), or the
 * state shared on etcd under the URL's prefix.
 *
 * etcd is not asked anything here: an unreachable etcd shows in the first read or write, a
 * silent one once `requestTimeout` (ms, 5000) has passed.
 */
export function openState(
  location: StateLocation,
  options: {
    readonly requestTimeout?: number;
    /** gRPC keep-alive pings on etcd, ms apart (see `EtcdStateOptions.keepAlive`). */
    readonly keepAlive?: number;
  } = {},
): OpenedState {
  if (location.kind === 'memory') {
    return { state: createInMemoryState(), location, close: () => Promise.resolve() };
  }
  const state = createEtcdState({
    endpoints: [location.endpoint],
    prefix: location.prefix,
    ...(options.requestTimeout !== undefined ? { requestTimeout: options.requestTimeout } : {}),
    ...(options.keepAlive !== undefined ? { keepAlive: options.keepAlive } : {}),
  });
  return { state, location, etcd: state, close: () => state.close() };
}
