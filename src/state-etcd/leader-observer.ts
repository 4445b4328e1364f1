import type { Namespace } from 'etcd3';

/** A running {@link observeLeader}. */
export interface LeaderObservation {
  /** Stops observing: nothing is reported after. */
  cancel(): void;
}

/** How long an observation that failed (etcd unreachable) waits before it reads again, ms. */
const RETRY_DELAY = 1000;

/**
 * Reports who leads an election (`onLeader` with the leader's value, `undefined` for none):
 * once at the start, then at each change, as etcd's `concurrency.Election.Observe` does. The
 * leader is the key under `election` created first; it is read again from etcd whenever a key is
 * created while none leads and when the leader's key goes, never taken from a watch event.
 *
 * etcd3's own `Election.observe()` is not used: while no key exists, it takes the last key of the
 * first watch delivery as the leader, so two candidates that campaign together (two processes
 * restarted by the same change) leave it reporting the second, who waits, and watching that key;
 * a follower then never says whom it follows. It also ends for good on the first error; this one
 * reads again after a second.
 */
export function observeLeader(
  election: Namespace,
  onLeader: (identity: string | undefined) => void,
): LeaderObservation {
  let running = true;
  /** Whether it still observes: read after each wait (a cancel may come during it). */
  const observing = (): boolean => running;
  /** What ends the wait under way: a cancel does not wait for etcd. */
  let stopWaiting: (() => void) | undefined;
  let reported: { readonly identity: string | undefined } | undefined;
  const report = (identity: string | undefined): void => {
    if (!running || (reported !== undefined && reported.identity === identity)) return;
    reported = { identity };
    onLeader(identity);
  };

  /** Waits until `watch` calls its `done`, an error, or the cancel; closes the watch after. */
  const until = async (
    watch: (done: () => void, failed: (error: unknown) => void) => Promise<{ cancel(): unknown }>,
  ): Promise<void> => {
    let watcher: { cancel(): unknown } | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        stopWaiting = resolve;
        watch(resolve, reject).then((created) => {
          watcher = created;
          if (!running) resolve();
        }, reject);
      });
    } finally {
      stopWaiting = undefined;
      void Promise.resolve(watcher?.cancel()).catch(() => undefined);
    }
  };

  const observeOnce = async (): Promise<void> => {
    const first = await election.getAll().sort('Create', 'Ascend').limit(1).exec();
    if (!observing()) return;
    const leader = first.kvs[0];
    const after = (BigInt(first.header.revision) + 1n).toString();
    report(leader?.value.toString());
    if (leader === undefined) {
      // Any key created from here on: who leads is read again (the first created, not the
      // last delivered).
      await until(async (done, failed) => {
        const watcher = await election.watch().prefix('').only('put').startRevision(after).create();
        watcher.on('put', () => done());
        watcher.on('error', failed);
        return watcher;
      });
      return;
    }
    await until(async (done, failed) => {
      const watcher = await election.watch().key(leader.key).startRevision(after).create();
      // A leader that proclaims another value is still the leader.
      watcher.on('put', (kv) => report(kv.value.toString()));
      watcher.on('delete', () => done());
      watcher.on('error', failed);
      return watcher;
    });
  };

  void (async () => {
    while (observing()) {
      try {
        await observeOnce();
      } catch {
        if (!observing()) return;
        await new Promise<void>((resolve) => {
          stopWaiting = resolve;
          setTimeout(resolve, RETRY_DELAY).unref();
        });
      }
    }
  })();

  return {
    cancel() {
      running = false;
      stopWaiting?.();
    },
  };
}
