/**
 * Warnings of one code past the first few, in a report for people: 400 kro instances waiting on
 * the same status make 400 `rgd-waiting` lines, which bury the rest of the output. The text
 * formats list the first {@link MAX_WARNINGS_PER_CODE} of each code and count the others in one
 * line per code; `-o json` lists every one, and so does the HTML report (`--report`).
 * Errors, and warnings that fail the run (`--strict`), are always listed.
 */

/** The most warnings of one code a text report lists; the rest are counted. */
export const MAX_WARNINGS_PER_CODE = 10;

/** The warnings of each code a text report lists in order, and how many of each it leaves out. */
export class RepeatedWarnings {
  readonly #seen = new Map<string, number>();

  /**
   * @param listedBy What lists every warning: `-o json` for `check` and `watch`; `apply`, `get`,
   *   `graph` print resources as JSON, so theirs is `cosi check -o json`.
   */
  constructor(private readonly listedBy = '-o json') {}

  /** Whether `finding` is listed; `failing` ones (errors, `--strict` warnings) always are. */
  take(finding: { readonly severity: string; readonly code: string }, failing = false): boolean {
    if (failing || finding.severity !== 'warning') return true;
    const seen = (this.#seen.get(finding.code) ?? 0) + 1;
    this.#seen.set(finding.code, seen);
    return seen <= MAX_WARNINGS_PER_CODE;
  }

  /** One line per code some warnings of were left out: `and 390 more rgd-waiting warnings ...`. */
  get rest(): string[] {
    const lines: string[] = [];
    for (const [code, seen] of this.#seen) {
      const hidden = seen - MAX_WARNINGS_PER_CODE;
      if (hidden <= 0) continue;
      lines.push(
        `and ${hidden} more ${code} warning${hidden === 1 ? '' : 's'} like the ones above (${seen} in all; ${this.listedBy} lists every one)`,
      );
    }
    return lines;
  }
}
