/** CEL values back to JSON, for what kro's expressions render and `json.marshal` writes. */

import { isCelList, isCelMap, isCelUint } from '@bufbuild/cel';
import { OMIT } from '../../controllers/template-rendering.js';
import { Optional } from '../cel/kubernetes-library/optional.js';
import { OmitValue } from './omit-value.js';

/**
 * A CEL value as JSON: ints as numbers, lists as arrays, maps as objects; `omit()` as the
 * renderer's {@link OMIT}, wherever it is.
 */
export function fromCelValue(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof OmitValue) return OMIT;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return value;
  if (isCelUint(value)) return Number(value.value);
  if (value instanceof Optional)
    return value.value === undefined ? null : fromCelValue(value.value);
  if (isCelList(value)) return [...value].map(fromCelValue);
  if (isCelMap(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of value.entries()) out[String(fromCelValue(key))] = fromCelValue(item);
    return out;
  }
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return value instanceof Date ? value.toISOString() : null;
}
