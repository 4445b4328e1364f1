import type { ConvergenceReport } from '../engine/runtime/convergence.js';

/** The exit codes of every command. */
export const EXIT = {
  ok: 0,
  /** Invalid manifests, controller errors, failed checks. */
  findings: 1,
  /** Bad flags or arguments, a config that does not load. */
  usage: 2,
  /** The controllers did not converge within the bounds. */
  notConverged: 3,
  /**
   * `cosi run` lost its leadership (its lease expired or could not be renewed in time): it
   * stopped its controllers before another process could lead. A supervisor restarts it.
   */
  leadershipLost: 4,
  /**
   * cosi itself failed: a bug (an error no command expects, printed with its stack), or it ran out
   * of memory in its own work (reading manifests). The run says nothing of the input: retry it,
   * or report it. sysexits' EX_SOFTWARE, so that CI tells it from a usage or config error.
   */
  internal: 70,
} as const;

/**
 * A second SIGINT / SIGTERM / SIGHUP ends `cosi run` at once with the shell's code for the signal.
 */
export const SIGNAL_EXIT = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * An error that ends a command with a given exit code and a message for the user. The top-level
 * catch in `main` turns it into that exit code; any other error is a bug (exit 70 with its stack).
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.usage,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** The exit code a convergence run earns: 0 settled (or steady), 1 controllers kept failing, 3 a bound hit. */
export function exitCodeOf(report: ConvergenceReport): ExitCode {
  switch (report.reason) {
    case 'quiescent':
    case 'steady':
      return EXIT.ok;
    case 'failing':
      return EXIT.findings;
    default:
      return EXIT.notConverged;
  }
}
