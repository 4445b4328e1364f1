import { text, type OpsResponse } from './ops-server.js';

/** Where a served project is in its life, as its health endpoints report it. */
export type ServePhase = 'starting' | 'following' | 'leading' | 'down' | 'stopping';

/**
 * `cosi run`'s health, as controller-runtime's manager serves it: `/healthz` answers 200 while
 * the process lives (it answers at all); `/readyz` answers 200 once the manifests are applied and
 * this process either follows a leader another process is (ready to take over: it holds its place
 * in the election) or leads, its controllers have settled once and nothing is wrong with them now
 * (no input watch down, no controller failing: what `cosi apply` would exit 1 for), and 503 with
 * the reason otherwise (starting, converging, a watch down, a failing controller, stopping, a
 * follower that lost its place in the election).
 */
export class RunHealth {
  #phase: ServePhase = 'starting';
  #convergedOnce = false;
  #leaderKnown = false;
  /** Whether the `starting` phase is a restart's (`cosi run --watch`), not the first start. */
  #restart = false;
  /** Why nothing runs, in the `down` phase. */
  #downReason = '';
  /** Why this process, not leading, lost its place in the election (none while it holds one). */
  #placeLost: string | undefined;

  get phase(): ServePhase {
    return this.#phase;
  }

  /**
   * The manifests are applied and this process campaigns (or, alone, is about to lead). It is
   * ready once it also knows a leader it follows (see {@link followsLeader}): a campaign alone is
   * not, as a lone process's is about to lead and converge, and would be ready twice.
   */
  following(): void {
    if (this.#phase === 'starting') this.#phase = 'following';
  }

  /** Another process leads, and this one follows it: ready to take over. */
  followsLeader(): void {
    this.#leaderKnown = true;
  }

  /**
   * This process, not leading, lost its place in the election (its lease expired: etcd
   * unreachable, or the process paused) and campaigns again: it cannot take over until it holds
   * one again ({@link rejoined}), whomever it followed.
   */
  lostPlace(reason: string): void {
    this.#placeLost = reason;
  }

  /** It holds a place in the election again: ready as before it lost it. */
  rejoined(): void {
    this.#placeLost = undefined;
  }

  /** This process leads: its controllers run. */
  leading(): void {
    if (this.#phase !== 'stopping') this.#phase = 'leading';
    this.#placeLost = undefined;
  }

  /** The leader's controllers had nothing left to do, once (converged, or settled failing). */
  converged(): void {
    this.#convergedOnce = true;
  }

  /**
   * The runtime starts again (`cosi run --watch` after a change of the code or definitions): as
   * at the first start, it is ready once it follows or has led and converged.
   */
  restarting(): void {
    if (this.#phase === 'stopping') return;
    this.#phase = 'starting';
    this.#restart = true;
    this.#convergedOnce = false;
    this.#leaderKnown = false;
    this.#placeLost = undefined;
  }

  /** Nothing runs: a restart could not start, for `reason`; a later one may. */
  down(reason: string): void {
    if (this.#phase === 'stopping') return;
    this.#phase = 'down';
    this.#downReason = reason;
  }

  stopping(): void {
    this.#phase = 'stopping';
  }

  /**
   * Whether `/readyz` answers 200, and why (not). `problems`: what is wrong with the leader's
   * controllers now (see `RuntimeFigures.problems`).
   */
  readiness(problems: readonly string[] = []): {
    readonly ready: boolean;
    readonly reason: string;
  } {
    switch (this.#phase) {
      case 'starting':
        return this.#restart
          ? {
              ready: false,
              reason: 'restarting: loading the changed files and applying the manifests',
            }
          : { ready: false, reason: 'starting: applying the manifests' };
      case 'following':
        if (this.#placeLost !== undefined) {
          return {
            ready: false,
            reason: `lost its place in the election: ${this.#placeLost}; campaigning again`,
          };
        }
        return this.#leaderKnown
          ? { ready: true, reason: 'following: ready to lead' }
          : { ready: false, reason: 'campaigning: no leader to follow yet' };
      case 'leading':
        if (!this.#convergedOnce) return { ready: false, reason: 'leading: converging' };
        return problems.length === 0
          ? { ready: true, reason: 'leading: converged' }
          : { ready: false, reason: `leading: ${problems.join('; ')}` };
      case 'down':
        return { ready: false, reason: `not running: ${this.#downReason}` };
      case 'stopping':
        return { ready: false, reason: 'stopping' };
    }
  }

  healthz(): OpsResponse {
    return text(200, 'ok\n');
  }

  readyz(problems: readonly string[] = []): OpsResponse {
    const { ready, reason } = this.readiness(problems);
    return text(ready ? 200 : 503, `${ready ? 'ok' : 'not ready'}: ${reason}\n`);
  }
}
