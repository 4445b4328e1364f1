import { parseDurationText } from '../app/parse-duration.js';

/**
 * The `--timeout` of a project command's line, read without the command's definition: the main
 * thread needs only this bound to supervise the worker that runs the command, and the worker
 * parses the whole line (and says what is wrong with it). The last `--timeout <d>` or
 * `--timeout=<d>` before `--` counts, as with the parser; `undefined` when there is none or it
 * is not a duration (the worker then refuses the line). A `--timeout` taken as the value of
 * another flag (`--ignore --timeout`) is read as the bound: at worst the supervisor waits on a
 * stuck project for that long instead of the default.
 */
export function timeoutFlag(argv: readonly string[]): number | undefined {
  let text: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    if (arg === '--timeout') text = argv[++i];
    else if (arg.startsWith('--timeout=')) text = arg.slice('--timeout='.length);
  }
  return text === undefined ? undefined : parseDurationText(text);
}
