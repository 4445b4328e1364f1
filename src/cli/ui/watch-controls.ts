import type { RoundStart } from '../../app/watch-session.js';
import type { RoundView } from './round-view.js';

/** What the screen's keys ask of the watch session. */
export interface WatchControls {
  quit(): void;
  /** Pauses or resumes reloading; returns whether it is paused now. */
  togglePause(): boolean;
  rerun(): void;
}

/** A running watch screen. */
export interface WatchScreen {
  show(round: RoundView): void;
  /**
   * A round starts: the screen that runs the session in a worker shows a fault that stops it as
   * this round (see `supervised-watch-screen.ts`).
   */
  roundStarted?(start: RoundStart): void;
  /** While paused: the files changed since the pause, which the header counts. */
  pending?(changed: readonly string[]): void;
  /** Unmounts and gives the terminal back (the screen before it, as full-screen tools do). */
  close(): void;
}
