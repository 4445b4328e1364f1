import { ConfigError } from '../loaders/load-config.js';
import { EtcdUnreachableError } from '../state-etcd/etcd-errors.js';
import { MissingManifestsError } from './config-manifests.js';
import { ForeignStateError } from './foreign-state.js';

/**
 * Why a served runtime could not start or lead that the operator must fix before trying again
 * (`cosi run` exits 2 with it): the config (code `config`), no manifests to serve (`no-manifests`), an etcd that is not there, a state
 * that holds another project. Plain data inside, so it crosses from a worker thread as it is.
 */
export class ServeRefusal extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'ServeRefusal';
  }
}

/** `error` as a {@link ServeRefusal} when it is one of those; `undefined` otherwise. */
export function refusalOf(error: unknown): ServeRefusal | undefined {
  if (error instanceof ServeRefusal) return error;
  if (error instanceof ConfigError) return new ServeRefusal(error.message, 'config');
  if (error instanceof MissingManifestsError)
    return new ServeRefusal(error.message, 'no-manifests');
  if (error instanceof EtcdUnreachableError || error instanceof ForeignStateError) {
    return new ServeRefusal(error.message, error.code);
  }
  return undefined;
}
