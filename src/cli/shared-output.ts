import { fstatSync } from 'node:fs';

/**
 * Whether the process's stderr is where its stdout goes (`2>&1`, `> log 2>&1`, a pipe both feed):
 * one file, one pipe or one terminal. What a command says on both would then be read twice.
 * `false` when it cannot tell (a closed descriptor).
 */
export function stderrJoinsStdout(): boolean {
  try {
    const out = fstatSync(1);
    const err = fstatSync(2);
    return out.dev === err.dev && out.ino === err.ino && out.rdev === err.rdev;
  } catch {
    return false;
  }
}
