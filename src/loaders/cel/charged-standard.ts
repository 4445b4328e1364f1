/**
 * Standard CEL functions cosi replaces to charge them to the runtime cost (`cost-budget.ts`):
 * `size()` of a string counts its code points, which reads the whole string, so a rule calling
 * it in a loop over a long string runs into the cost limit as in the API server. The count
 * itself does not copy the string (`@bufbuild/cel` spreads it into an array).
 */

import { celFunc, celMethod, CelScalar, type CelFunc } from '@bufbuild/cel';
import { charge, sizeCost } from './cost-budget.js';

const { INT, STRING } = CelScalar;

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

function size(text: string): bigint {
  charge(sizeCost(text.length));
  return BigInt(codePointCount(text));
}

export const chargedStandardFunctions: readonly CelFunc[] = [
  celFunc('size', [STRING], INT, size),
  celMethod('size', STRING, [], INT, function () {
    return size(this);
  }),
];
