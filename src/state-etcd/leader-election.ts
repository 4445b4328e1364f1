import type { Campaign, Election, Etcd3, Lease, Watcher } from 'etcd3';
import { FAULT_HANDLING } from './fault-handling.js';
import { describeFingerprintDifference, type ProjectFingerprint } from './project-fingerprint.js';
import {
  DEFAULT_REQUEST_TIMEOUT,
  EtcdTimeoutError,
  isConnectionFailure,
  withDeadline,
} from '../state-etcd/etcd-errors.js';
import { describeConnectionFailure } from './connection-failure.js';
import { observeLeader, type LeaderObservation } from './leader-observer.js';

/** How a process takes part in a leader election on etcd. */
export interface EtcdLeaderElectionOptions {
  /** `http://host:port` of an etcd member. */
  readonly endpoint: string;
  /** The key prefix of the shared state: the election's keys go under `PREFIX/election/NAME/`. */
  readonly prefix: string;
  /** The election's name: processes with the same prefix and name compete with each other. */
  readonly name: string;
  /**
   * The lease's time to live, in whole seconds (at least 1): how long a leader that stopped
   * answering (killed, cut off) keeps the leadership before another process takes over.
   */
  readonly ttl: number;
  /** This candidate's value in the election (shown by `observe`): who leads. */
  readonly identity: string;
  /**
   * Called once when leadership, once held, is lost: the lease expired or was revoked, or it could
   * not be renewed for two thirds of its TTL. The process must then stop leading at once.
   */
  readonly onLost?: (error: Error) => void;
  /** How long a request (not the keep-alive stream) may wait for etcd, ms; 5000. */
  readonly requestTimeout?: number;
  /**
   * Called with the identity of the candidate that leads whenever it changes (`undefined`: none
   * leads), once this candidate campaigns: a follower can say whom it follows.
   */
  readonly onLeader?: (identity: string | undefined) => void;
  /**
   * Called when this candidate, not leading, lost its place in the election (its lease expired
   * or could not be granted), with why, in plain words, and the ms before it campaigns again
   * on a new lease.
   */
  readonly onRejoin?: (reason: string, delay: number) => void;
  /**
   * Called when a candidate that lost its place ({@link onRejoin}) holds one again: the lease of
   * its new campaign was renewed.
   */
  readonly onRejoined?: () => void;
}

/** A candidate in a leader election on an etcd lease. */
export interface EtcdLeaderElection {
  /**
   * Campaigns and resolves once this candidate leads: the `elect` option of `createManager`.
   * When `signal` aborts first, the candidacy is withdrawn and the promise rejects.
   */
  elect(signal: AbortSignal, fingerprint?: ProjectFingerprint): Promise<void>;
  /** Whether this candidate leads now. */
  readonly leading: boolean;
  /**
   * Withdraws: revokes the lease, so that its key is gone at once and another candidate takes
   * over without waiting for the TTL. Closes the connection. Idempotent.
   *
   * With `release: false` (leadership was lost: the lease is gone or about to expire), nothing
   * more is asked of etcd: the connection is closed at once.
   *
   * The release (the fingerprint removed, then the lease revoked) takes at most the request
   * timeout in all; what etcd did not confirm by then is said in the result.
   */
  close(options?: { readonly release?: boolean }): Promise<ElectionRelease>;
}

/** What {@link EtcdLeaderElection.close} could not release, and why. */
export interface ElectionRelease {
  /**
   * `lease`: the candidate's lease was not revoked (its election key stays until the lease
   * expires, and the next candidate leads only then); `fingerprint`: the leader's fingerprint
   * was not removed (a process with another config refuses to lead until it is).
   */
  readonly unreleased: readonly ('lease' | 'fingerprint')[];
  /** Why, in plain words, when something was not released. */
  readonly reason?: string;
  /** The fingerprint's key, `PREFIX/fingerprint`. */
  readonly fingerprintKey: string;
}

/**
 * A leader election on an etcd lease, as etcd's `concurrency.Election` runs it (campaign: a key
 * under the election's prefix, attached to this process's lease; the candidate whose key was
 * created first leads; the others wait for the key before theirs to be deleted). The lease is
 * kept alive every third of its TTL; when the process dies, the lease expires after the TTL, its
 * key goes with it and the next candidate leads.
 *
 * Leadership is given up (`onLost`) when the lease is lost, and also when no keep-alive has been
 * confirmed for two thirds of the TTL: the lease may expire on the server before the client
 * hears of it, and by then the leader must have stopped (controller-runtime's renew deadline,
 * shorter than the lease duration, for the same reason). The leader also watches its own
 * campaign key: a lease revoked (or expired, or the key deleted by hand) deletes it, and the next
 * candidate is elected at that moment, so the leader gives up as soon as etcd tells it, not at its
 * next keep-alive (up to a third of the TTL later, with two leaders meanwhile).
 */
export function createEtcdLeaderElection(options: EtcdLeaderElectionOptions): EtcdLeaderElection {
  if (!Number.isInteger(options.ttl) || options.ttl < 1) {
    throw new RangeError(`the lease TTL is whole seconds, at least 1: got ${options.ttl}`);
  }
  // etcd3 (and gRPC under it) loads on the first campaign: importing this module costs nothing.
  let client: Etcd3 | undefined;
  const timeout = options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT;
  const connect = async (): Promise<Election> => {
    const { Etcd3: Client } = await import('etcd3');
    client ??= new Client({
      hosts: options.endpoint,
      defaultCallOptions: (context) => (context.isStream ? {} : { deadline: Date.now() + timeout }),
      faultHandling: FAULT_HANDLING,
    });
    return client.namespace(`${options.prefix}/`).election(options.name, options.ttl);
  };
  const renewDeadline = Math.round((options.ttl * 1000 * 2) / 3);
  let observer: LeaderObservation | undefined;
  let campaign: Campaign | undefined;
  let leading = false;
  let closed = false;
  let lost = false;
  let lastRenewal = 0;
  let watchdog: NodeJS.Timeout | undefined;
  let keyWatcher: Watcher | undefined;
  /** The next campaign of a candidate that lost its place. */
  let rejoin: NodeJS.Timeout | undefined;

  const loseLeadership = (error: Error): void => {
    if (!leading || lost) return;
    lost = true;
    leading = false;
    clearInterval(watchdog);
    keyWatcher?.cancel().catch(() => undefined);
    options.onLost?.(error);
  };

  let closing: Promise<ElectionRelease> | undefined;
  const close = ({ release = true } = {}): Promise<ElectionRelease> =>
    (closing ??= (async () => {
      closed = true;
      leading = false;
      clearInterval(watchdog);
      clearTimeout(rejoin);
      observer?.cancel();
      keyWatcher?.cancel().catch(() => undefined);
      const unreleased: ('lease' | 'fingerprint')[] = [];
      let reason: string | undefined;
      if (!release) {
        client?.close();
        return { unreleased, fingerprintKey };
      }
      // One deadline for the whole release: the stop is bounded by the request timeout.
      const deadline = Date.now() + timeout;
      const within = <T>(request: Promise<T>): Promise<T> =>
        withDeadline(
          request,
          Math.max(1, deadline - Date.now()),
          () => new EtcdTimeoutError([options.endpoint], timeout),
        );
      const failed = (what: 'lease' | 'fingerprint', error: unknown): void => {
        unreleased.push(what);
        reason ??= describeReleaseFailure(error, options);
      };
      try {
        // A clean stop hands the state on: the next leader may serve another config. Removed
        // before the lease goes, so that the next leader never reads this one's.
        if (claimed && client) {
          await within(client.delete().key(fingerprintKey).exec()).catch((error: unknown) =>
            failed('fingerprint', error),
          );
        }
        // Revoking the lease deletes the campaign key: the next candidate leads now.
        if (campaign) {
          await within(campaign.resign()).catch((error: unknown) => failed('lease', error));
        }
      } finally {
        client?.close();
      }
      return { unreleased, fingerprintKey, ...(reason === undefined ? {} : { reason }) };
    })());

  /** Where the leader keeps its project's fingerprint, beside the state's data. */
  const fingerprintKey = `${options.prefix}/fingerprint`;
  let claimed = false;

  /**
   * Writes this project's fingerprint, once elected; refuses (rejects) when the one there is
   * another config's: that leader crashed, or still runs and this one took over.
   */
  const claim = async (own: ProjectFingerprint): Promise<void> => {
    const etcd = client as Etcd3;
    const storedText = await etcd.get(fingerprintKey).string();
    if (storedText !== null) {
      const stored = JSON.parse(storedText) as ProjectFingerprint;
      // One this process wrote before a restart that could not remove it (etcd unreachable)
      // is its own: replaced by the config it runs now.
      if (stored.digest !== own.digest && stored.identity !== own.identity) {
        throw new FingerprintMismatchError(
          `the state is served with another config (${describeFingerprintDifference(stored, own)}; written by ${stored.identity}): this process will not lead. Run every process on it with one config; if no process of the other runs any more, remove it: etcdctl del ${fingerprintKey}`,
        );
      }
    }
    await etcd.put(fingerprintKey).value(JSON.stringify(own));
    claimed = true;
  };

  const elect = async (signal: AbortSignal, fingerprint?: ProjectFingerprint): Promise<void> => {
    const election = await connect();
    // Closed while connecting: the close found no client to close.
    if (closed) client?.close();
    return new Promise<void>((resolve, reject) => {
      if (closed || signal.aborted) {
        reject(new Error('the election was closed before this candidate was elected'));
        return;
      }
      if (options.onLeader) watchLeader(options.onLeader);
      const onAbort = (): void => {
        reject(new Error('the election was closed before this candidate was elected'));
        void close();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      /** Campaigns that failed in a row, for the backoff before the next. */
      let failures = 0;
      const campaignOnce = (): void => {
        if (closed || signal.aborted) return;
        const current = election.campaign(options.identity);
        campaign = current;
        leaseOf(current).on('keepaliveSucceeded', () => {
          if (campaign !== current) return;
          lastRenewal = Date.now();
          if (failures > 0) options.onRejoined?.();
          failures = 0;
        });
        current.on('elected', () => {
          // A campaign given up (its lease lost) can still hear its turn come: not this one's.
          if (campaign !== current) return;
          signal.removeEventListener('abort', onAbort);
          if (closed) return;
          if (fingerprint !== undefined) {
            claim(fingerprint).then(
              () => lead(current),
              (error: unknown) => {
                reject(error instanceof Error ? error : new Error(String(error)));
                void close();
              },
            );
            return;
          }
          lead(current);
        });
        let gaveUp = false;
        current.on('error', (error: Error) => {
          // A lease that could not be granted fails the campaign twice (its loss, its start).
          if (campaign !== current || closed || gaveUp) return;
          if (leading) {
            loseLeadership(new Error(`the lease was lost: ${error.message}`));
            return;
          }
          // A candidate that does not lead holds nothing: losing its lease (etcd unreachable, or
          // this process paused, for longer than the TTL) costs it only its place in the queue.
          // It campaigns again on a new lease, as a client-go candidate keeps trying to acquire.
          gaveUp = true;
          current.resign().catch(() => undefined);
          const delay = Math.min(options.ttl * 1000, 500 * 2 ** failures++);
          options.onRejoin?.(describeCandidacyLoss(error, options), delay);
          rejoin = setTimeout(campaignOnce, delay);
        });
      };
      const lead = (current: Campaign): void => {
        // Its lease lost while the fingerprint was claimed: the next campaign leads, or not.
        if (closed || campaign !== current) return;
        leading = true;
        lastRenewal = Date.now();
        watchdog = setInterval(
          () => {
            // The time since the last renewal, measured: past the deadline by as much as the
            // process was kept from running (paused, starved), which the message shows.
            const gap = Date.now() - lastRenewal;
            if (gap > renewDeadline) {
              loseLeadership(
                new Error(
                  `the lease was not renewed for ${seconds(gap)}, over two thirds of its ${options.ttl}s TTL (${seconds(renewDeadline)}: etcd unreachable or too slow, or this process paused)`,
                ),
              );
            }
          },
          Math.max(100, renewDeadline / 4),
        );
        void watchCampaignKey(current);
        resolve();
      };
      campaignOnce();
    });
  };

  /**
   * Gives up the leadership as soon as this leader's campaign key is deleted: its lease was
   * revoked or expired (the next candidate leads from that revision on). A watch that cannot be
   * opened (etcd away) leaves it to the keep-alive and the renew deadline.
   */
  const watchCampaignKey = async (current: Campaign): Promise<void> => {
    const etcd = client;
    if (etcd === undefined) return;
    try {
      const key = await current.getCampaignKey();
      const watcher = await etcd.watch().key(key).only('delete').create();
      if (closed || lost) {
        watcher.cancel().catch(() => undefined);
        return;
      }
      keyWatcher = watcher;
      const gone = (): void =>
        loseLeadership(
          new Error(
            `the lease was revoked or has expired: this leader's election key ${key} was deleted`,
          ),
        );
      watcher.on('delete', gone);
      watcher.on('error', () => undefined);
      // Deleted before the watch began.
      if ((await etcd.get(key).string()) === null) gone();
    } catch {
      // The keep-alive and the renew deadline still tell.
    }
  };

  /**
   * Tells `onLeader` who leads, now and on every change: read from the campaign keys, which
   * etcd3's election keeps under `PREFIX/election/NAME/`.
   */
  const watchLeader = (onLeader: (identity: string | undefined) => void): void => {
    if (closed || client === undefined) return;
    observer = observeLeader(
      client.namespace(`${options.prefix}/election/${options.name}/`),
      onLeader,
    );
  };

  return {
    elect,
    get leading() {
      return leading;
    },
    close,
  };
}

/**
 * The campaign's lease, to hear of each confirmed keep-alive: etcd3 keeps it private, and the
 * renew deadline cannot be kept without it (a read of the campaign key only says the lease was
 * alive then, not until when). etcd3 is pinned to an exact version for this.
 */
function leaseOf(campaign: Campaign): Lease {
  return (campaign as unknown as { readonly lease: Lease }).lease;
}

/** This process's project differs from the one the state is served with: it must not lead. */
export class FingerprintMismatchError extends Error {
  readonly code = 'fingerprint-mismatch';

  constructor(message: string) {
    super(message);
    this.name = 'FingerprintMismatchError';
  }
}

/**
 * Why a candidate lost its place, in plain words: etcd3 says `Lease We lost connection to etcd
 * and our lease has expired. is expired or revoked` (its lease error wraps its own message).
 */
function describeCandidacyLoss(error: Error, options: EtcdLeaderElectionOptions): string {
  if (/ is expired or revoked$/.test(error.message)) {
    return `its lease expired or was revoked (etcd unreachable, or this process paused, for longer than the ${options.ttl}s TTL)`;
  }
  if (isConnectionFailure(error)) {
    const failure = describeConnectionFailure(error);
    return `etcd unreachable at ${options.endpoint.replace(/^https?:\/\//, '')}${failure === undefined ? '' : `: ${failure.reason}`}`;
  }
  return error.message;
}

/** Why a release failed, in plain words: the request timeout, or etcd unreachable. */
function describeReleaseFailure(error: unknown, options: EtcdLeaderElectionOptions): string {
  if (error instanceof EtcdTimeoutError) return error.message;
  if (isConnectionFailure(error)) {
    const failure = describeConnectionFailure(error);
    return `etcd unreachable at ${options.endpoint.replace(/^https?:\/\//, '')}${failure === undefined ? '' : `: ${failure.reason}`}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** `3.33s`: a duration in seconds, to two decimals at most. */
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(2))}s`;
}
