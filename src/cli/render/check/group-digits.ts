/**
 * `5000` as `5,000`, as `toLocaleString('en-US')` writes a count, without it: the first call of
 * `toLocaleString` loads the ICU data, some 10 ms of every check's start.
 */
export function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}
