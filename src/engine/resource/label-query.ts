/**
 * Label queries, with COSI's semantics: terms inside one query are AND-ed, a list of queries is
 * OR-ed; a missing label (or an unparsable number) makes the less-than family false, even when the
 * term is inverted.
 */

export type LabelOp = 'exists' | 'equal' | 'in' | 'lt' | 'lte' | 'ltNumeric' | 'lteNumeric';

/** One condition on one label key; the terms of a {@link LabelQuery} all hold. */
export interface LabelTerm {
  readonly key: string;
  readonly op: LabelOp;
  readonly values: readonly string[];
  readonly invert: boolean;
}

/** Terms that must all hold. An empty query matches everything. */
export interface LabelQuery {
  readonly terms: readonly LabelTerm[];
}

type Labels = Readonly<Record<string, string>>;

const term = (key: string, op: LabelOp, values: readonly string[]): LabelTerm => ({
  key,
  op,
  values,
  invert: false,
});

/** The label is set (to anything). */
export const labelExists = (key: string): LabelTerm => term(key, 'exists', []);
/** The label is set to `value`. */
export const labelEqual = (key: string, value: string): LabelTerm => term(key, 'equal', [value]);
/** The label is set to one of `values`. */
export const labelIn = (key: string, values: readonly string[]): LabelTerm =>
  term(key, 'in', [...values]);
/** The label's value sorts before `value` (string comparison). */
export const labelLT = (key: string, value: string): LabelTerm => term(key, 'lt', [value]);
/** The label's value sorts before `value` or equals it (string comparison). */
export const labelLTE = (key: string, value: string): LabelTerm => term(key, 'lte', [value]);
/** The label's value, as a number with an optional k/M/G/T/P or Ki/Mi/Gi/Ti/Pi unit, is less. */
export const labelLTNumeric = (key: string, value: string): LabelTerm =>
  term(key, 'ltNumeric', [value]);
/** The label's value, read as a number, is at most `value`. */
export const labelLTENumeric = (key: string, value: string): LabelTerm =>
  term(key, 'lteNumeric', [value]);
/** Inverts a term. A comparison on a missing label stays false. */
export const notMatches = (t: LabelTerm): LabelTerm => ({ ...t, invert: !t.invert });

/** A query from terms that must all hold. */
export const labelQuery = (...terms: LabelTerm[]): LabelQuery => ({ terms });

const isComparison = (op: LabelOp): boolean =>
  op === 'lt' || op === 'lte' || op === 'ltNumeric' || op === 'lteNumeric';

export function termMatches(labels: Labels, t: LabelTerm): boolean {
  const result = rawMatch(labels, t);
  if (result === undefined) return false;
  return t.invert ? !result : result;
}

/** `undefined` means "cannot compare": false whether or not the term is inverted. */
function rawMatch(labels: Labels, t: LabelTerm): boolean | undefined {
  if (!Object.prototype.hasOwnProperty.call(labels, t.key)) {
    return isComparison(t.op) ? undefined : false;
  }
  const value = labels[t.key] as string;
  if (t.op === 'exists') return true;
  const first = t.values[0];
  if (first === undefined) return false;
  switch (t.op) {
    case 'equal':
      return value === first;
    case 'in':
      return t.values.includes(value);
    case 'lt':
      return value < first;
    case 'lte':
      return value <= first;
    case 'ltNumeric':
    case 'lteNumeric': {
      const left = parseQuantity(value);
      const right = parseQuantity(first);
      if (left === undefined || right === undefined) return undefined;
      return t.op === 'ltNumeric' ? left < right : left <= right;
    }
  }
}

export function queryMatches(labels: Labels, query: LabelQuery): boolean {
  for (const t of query.terms) if (!termMatches(labels, t)) return false;
  return true;
}

/** OR over queries; no queries at all matches everything. */
export function queriesMatch(labels: Labels, queries: readonly LabelQuery[] | undefined): boolean {
  if (!queries || queries.length === 0) return true;
  for (const q of queries) if (queryMatches(labels, q)) return true;
  return false;
}

const UNITS: Readonly<Record<string, bigint>> = {
  '': 1n,
  k: 10n ** 3n,
  m: 10n ** 6n,
  g: 10n ** 9n,
  t: 10n ** 12n,
  p: 10n ** 15n,
  ki: 1n << 10n,
  mi: 1n << 20n,
  gi: 1n << 30n,
  ti: 1n << 40n,
  pi: 1n << 50n,
};

/**
 * Parses `12`, `-3`, `4k`, `2Mi`... into an integer (as COSI: leading digits, then a unit whose
 * first one or two letters decide, case-insensitive). `undefined` when it is not a number.
 */
export function parseQuantity(text: string): bigint | undefined {
  const trimmed = text.trim();
  const match = /^([0-9-]+)(.*)$/s.exec(trimmed);
  if (!match) return undefined;
  const digits = match[1] as string;
  if (!/^-?[0-9]+$/.test(digits)) return undefined;
  const unit = (match[2] as string).trim().toLowerCase();
  let multiplier: bigint | undefined;
  if (unit.length === 0) multiplier = 1n;
  else if (unit.length > 1 && UNITS[unit.slice(0, 2)] !== undefined && unit[1] === 'i') {
    multiplier = UNITS[unit.slice(0, 2)];
  } else multiplier = UNITS[unit.slice(0, 1)];
  if (multiplier === undefined) return undefined;
  const value = BigInt(digits);
  if (value > 9223372036854775807n || value < -9223372036854775808n) return undefined;
  return value * multiplier;
}

/** A query on resource ids. */
export interface IdQuery {
  readonly regexp: RegExp;
}

/** An id query from a regexp; global and sticky flags are dropped so matching has no state. */
export function idRegexp(regexp: RegExp | string): IdQuery {
  const re = typeof regexp === 'string' ? new RegExp(regexp) : regexp;
  return { regexp: new RegExp(re.source, re.flags.replace(/[gy]/g, '')) };
}

export const idMatches = (id: string, query: IdQuery | undefined): boolean =>
  query === undefined || query.regexp.test(id);
