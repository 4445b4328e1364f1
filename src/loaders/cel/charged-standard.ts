/**
 * Standard CEL functions cosi replaces to charge them to the runtime cost (`cost-budget.ts`), as
 * the API server's cost tracker charges them: those whose work grows with the size of their
 * arguments (`size()` of a string, `contains`, `startsWith`, `endsWith`, `matches`, string,
 * bytes and list concatenation, string comparison, `in` a list). A rule calling them in a loop
 * over long strings or lists runs into the cost limit instead of running for minutes.
 */

import {
  celEnv,
  celFunc,
  celMethod,
  CelScalar,
  isCelError,
  isCelList,
  type CelFunc,
  type CelValue,
} from '@bufbuild/cel';
import { charge, sizeCost } from './cost-budget.js';
import { compileRegex } from './kubernetes-library/regex.js';

const { BOOL, INT, STRING } = CelScalar;

function sizeOf(value: CelValue | undefined): number {
  if (typeof value === 'string' || value instanceof Uint8Array) return value.length;
  if (isCelList(value)) return value.size;
  return 0;
}

/**
 * A copy of `func` that charges for the size of its target and arguments, and of its result
 * unless `result` is false (a result no larger than the arguments).
 */
export function chargedCopy(func: CelFunc, options: { result?: boolean } = {}): CelFunc {
  const chargeResult = options.result ?? true;
  const impl = function (this: CelValue | undefined, ...args: CelValue[]): CelValue {
    charge(sizeCost(sizeOf(this) + args.reduce((n: number, arg) => n + sizeOf(arg), 0)));
    const result = func.call(0, this, args);
    if (result === undefined) throw new Error(`found no matching overload for '${func.name}'`);
    if (isCelError(result)) throw result;
    if (chargeResult) charge(sizeCost(sizeOf(result)));
    return result;
  };
  return func.target === undefined
    ? celFunc(
        func.name,
        func.arguments,
        func.result,
        impl as unknown as Parameters<typeof celFunc>[3],
      )
    : celMethod(
        func.name,
        func.target,
        func.arguments,
        func.result,
        impl as unknown as Parameters<typeof celMethod>[4],
      );
}

/** The number of code points of `text`: UTF-16 units less the second halves of pairs. */
export function codePointCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/**
 * Two strings' order by code point (Go's, which compares UTF-8 bytes), charged by their size.
 * JavaScript's `<` compares UTF-16 units, which puts a character past U+FFFF (a surrogate pair,
 * units from 0xD800) before one from U+E000 to U+FFFF: at the first unit that differs, a
 * surrogate is lifted past the basic plane.
 */
export function compareStrings(a: string, b: string): number {
  charge(sizeCost(a.length + b.length));
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return liftSurrogate(x) - liftSurrogate(y);
  }
  return a.length - b.length;
}

function liftSurrogate(unit: number): number {
  return unit >= 0xd800 && unit <= 0xdfff ? unit + 0x10000 : unit;
}

/** `size()` of a string: counted without copying it (`@bufbuild/cel` spreads it to an array). */
function size(text: string): bigint {
  charge(sizeCost(text.length));
  return BigInt(codePointCount(text));
}

/** The standard overloads charged by argument size (`@bufbuild/cel`'s ids). */
const CHARGED = new Set([
  '_+_(string,string)',
  '_+_(bytes,bytes)',
  '_+_(list,list)',
  '@in(dyn,list)',
  'string.contains(string)',
  'string.startsWith(string)',
  'string.endsWith(string)',
]);

export const chargedStandardFunctions: readonly CelFunc[] = [
  ...[...celEnv().funcs]
    .filter((func) => CHARGED.has(func.id))
    .map((func) => chargedCopy(func, { result: false })),
  // Ordered by code point, as Go compares strings (by their UTF-8 bytes).
  celFunc('_<_', [STRING, STRING], BOOL, (a, b) => compareStrings(a, b) < 0),
  celFunc('_<=_', [STRING, STRING], BOOL, (a, b) => compareStrings(a, b) <= 0),
  celFunc('_>_', [STRING, STRING], BOOL, (a, b) => compareStrings(a, b) > 0),
  celFunc('_>=_', [STRING, STRING], BOOL, (a, b) => compareStrings(a, b) >= 0),
  celFunc('size', [STRING], INT, size),
  celMethod('size', STRING, [], INT, function () {
    return size(this);
  }),
  // Untrusted patterns and input: RE2JS, linear time.
  celMethod('matches', STRING, [STRING], BOOL, function (pattern) {
    charge(sizeCost(this.length));
    return compileRegex(pattern).test(this);
  }),
  celFunc('matches', [STRING, STRING], BOOL, (text, pattern) => {
    charge(sizeCost(text.length));
    return compileRegex(pattern).test(text);
  }),
];
