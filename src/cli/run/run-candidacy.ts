import { formatDuration } from '../../app/format-duration.js';
import type { RunHealth } from '../../app/run-health.js';
import {
  createEtcdLeaderElection,
  type ElectionRelease,
} from '../../state-etcd/leader-election.js';
import type { ProjectFingerprint } from '../../state-etcd/project-fingerprint.js';
import type { RunLog } from './run-log.js';

/** The name processes serving one state elect their leader under. */
export const ELECTION_NAME = 'cosi-run';

/**
 * One start's candidacy in the election of the `cosi run` processes that serve one state on
 * etcd: what it says of the election (whom it follows, that it lost its place), the run it ends
 * when its leadership is lost (exit 4), and its release when the start stops.
 */
export interface RunCandidacy {
  /** Campaigns, and resolves once this process leads (the runtime's `elect`). */
  elect(signal: AbortSignal, fingerprint?: ProjectFingerprint): Promise<void>;
  /** Whether this process leads now. */
  readonly leading: boolean;
  /**
   * Leaves the election when its start stops: releases its lease and the fingerprint unless the
   * leadership was `lost` (then it asks etcd nothing more). What etcd kept is said as a warning
   * each, with what it means for the next start (`led`: this process led); true when it kept any.
   */
  leave(lost: boolean, led: boolean): Promise<boolean>;
  /** Leaves the election of a start that never campaigned (a discarded restart's): nothing said. */
  withdraw(): Promise<void>;
}

/** Where the election is, and what the candidacy says and ends. */
export interface RunCandidacyOptions {
  /** `http://host:port` of the etcd the state is on. */
  readonly endpoint: string;
  readonly prefix: string;
  /** The lease TTL, whole seconds. */
  readonly ttl: number;
  /** This process, as the others see it lead. */
  readonly identity: string;
  readonly requestTimeout: number;
  readonly log: RunLog;
  readonly health: RunHealth;
  /** Whether what the candidacy says is heard: its start is the one that runs, and not ending. */
  readonly heard: () => boolean;
  /** Its leadership was lost: the run ends (exit 4). Called only while heard. */
  readonly lost: (error: Error) => void;
  /** Runs `then` once its start was said (`started as ...`), if it is heard then. */
  readonly announced: (then: () => void) => void;
}

/** Joins the election as a candidate that campaigns when its runtime asks it to (`elect`). */
export function joinRunElection(options: RunCandidacyOptions): RunCandidacy {
  const { log, health, heard, identity, ttl } = options;
  let lastLeader: string | undefined;
  const election = createEtcdLeaderElection({
    endpoint: options.endpoint,
    prefix: options.prefix,
    name: ELECTION_NAME,
    ttl,
    identity,
    requestTimeout: options.requestTimeout,
    onLost: (error) => {
      if (heard()) options.lost(error);
    },
    onRejoin: (reason, delay) => {
      if (!heard()) return;
      // Not a standby any more: /readyz says so until its new lease holds.
      health.lostPlace(reason);
      log.warn(
        `lost its place in the election: ${reason}; it did not lead, and campaigns again on a new lease in ${formatDuration(delay)}`,
        { code: 'candidacy-lost' },
      );
    },
    onRejoined: () => {
      if (heard()) health.rejoined();
    },
    // Said after the start is (`started as ...`), as the rest of its leadership.
    onLeader: (leader) =>
      options.announced(() => {
        // A leader that hears of another one has lost its leadership (and says so), or is about
        // to: it does not say it follows while it still leads.
        if (!heard() || election.leading) return;
        if (leader === lastLeader || leader === identity) return;
        lastLeader = leader;
        if (leader === undefined) log.info('no leader: campaigning');
        else {
          health.followsLeader();
          log.info(`following ${leader}`, { leader });
        }
      }),
  });
  return {
    elect: (signal, fingerprint) => election.elect(signal, fingerprint),
    get leading() {
      return election.leading;
    },
    leave: async (lost, led) => {
      const release = await election.close({ release: !lost });
      if (release.unreleased.length === 0) return false;
      logUnreleased(log, release, ttl, led);
      return true;
    },
    withdraw: async () => {
      await election.close();
    },
  };
}

/**
 * What the stop could not release in etcd, and what it means for the next start: a warning
 * each, with the command that repairs it.
 */
function logUnreleased(log: RunLog, release: ElectionRelease, ttl: number, led: boolean): void {
  const why = release.reason ?? 'etcd did not answer';
  if (release.unreleased.includes('fingerprint')) {
    log.warn(
      `could not remove ${release.fingerprintKey} (${why}): a process with another config will refuse to lead on this state until it is removed; once no process of this config runs: etcdctl del ${release.fingerprintKey}`,
      { code: 'release-failed' },
    );
  }
  if (release.unreleased.includes('lease')) {
    log.warn(
      `could not revoke the election lease (${why}): this process's election key stays in etcd until the lease expires, within ${ttl}s${led ? ', and no other process leads until then' : ''}`,
      { code: 'release-failed' },
    );
  }
}
