/**
 * What a command writes while a full-screen view owns the terminal (`cosi watch`): held, and
 * written once the screen is closed. Written at once, it would be drawn over by the next frame,
 * or wiped with the alternate screen when the view closes, so that a start-up error (`no
 * manifests given`) or a controller's `console.log` left only an exit code behind. The last
 * {@link HELD_OUTPUT_LIMIT} characters are kept, so a long session's output cannot grow without
 * bound.
 */

import type { CliIo } from './io.js';

/** The most characters held; earlier ones are dropped, and that is said when written. */
export const HELD_OUTPUT_LIMIT = 256 * 1024;

export interface HeldOutput {
  /** `io`, with stdout and stderr held. */
  readonly io: CliIo;
  /** Writes what was held, in order, to the real streams; what comes after goes straight there. */
  release(): void;
}

export function holdOutput(io: CliIo): HeldOutput {
  const held: { stream: 'stdout' | 'stderr'; text: string }[] = [];
  let size = 0;
  let dropped = false;
  let released = false;
  const writer = (stream: 'stdout' | 'stderr') => ({
    write(text: string): boolean {
      if (released) {
        io[stream].write(text);
        return true;
      }
      held.push({ stream, text });
      size += text.length;
      while (size > HELD_OUTPUT_LIMIT && held.length > 1) {
        size -= (held.shift() as { text: string }).text.length;
        dropped = true;
      }
      return true;
    },
  });
  return {
    io: { ...io, stdout: writer('stdout'), stderr: writer('stderr') },
    release() {
      if (released) return;
      released = true;
      if (dropped) io.stderr.write('cosi: (earlier output of the session dropped)\n');
      for (const { stream, text } of held.splice(0)) io[stream].write(text);
    },
  };
}
