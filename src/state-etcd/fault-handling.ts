import type { IOptions } from 'etcd3';

/** What the etcd client takes as the fault handling of one host: a cockatiel policy. */
type HostPolicy = ReturnType<NonNullable<NonNullable<IOptions['faultHandling']>['host']>>;

const NOTHING = { dispose: () => undefined };

/**
 * A host policy that runs every call: no circuit breaker. etcd3's default breaker opens after
 * three failed calls and then fails every call for 5 s without trying ("Execution prevented
 * because the circuit breaker is open"), however soon etcd is back: a blip of half a second cost a
 * leader its lease (5 s by default, renewed within 3.33 s). Without it, a call fails only when
 * etcd does not answer it, and the first one after etcd is back goes through. Bounding the calls
 * is the request timeout's job, and retrying them the callers' (a controller's backoff, the
 * lease's keep-alive).
 */
const RUN_EVERY_CALL = {
  execute: <T>(
    fn: (context: { signal: AbortSignal }) => PromiseLike<T> | T,
    signal?: AbortSignal,
  ) => Promise.resolve().then(() => fn({ signal: signal ?? new AbortController().signal })),
  onSuccess: () => NOTHING,
  onFailure: () => NOTHING,
} as unknown as HostPolicy;

/** The etcd client's fault handling, for every client cosi makes: see {@link RUN_EVERY_CALL}. */
export const FAULT_HANDLING: NonNullable<IOptions['faultHandling']> = {
  host: () => RUN_EVERY_CALL,
};
