/**
 * What kro's CEL environment adds to the API server's (kro `pkg/cel/environment.go`, its
 * `pkg/cel/library` and the cel-go extensions it enables), written from their documented
 * behaviour:
 *
 * - `random.seededString(n, seed)`: `n` characters of `[0-9a-z]`, character `i` from the 4 bytes
 *   at `(4i mod 32)` of the SHA-256 of `seed`, big-endian, modulo 36; `random.seededInt(min,
 *   max, seed)`: `min + (first 8 bytes of SHA-256(seed), big-endian) mod (max - min)`;
 * - `hash.fnv64a(s)`, `hash.sha256(s)`, `hash.md5(s)`: the digest as bytes;
 * - `base64.encode(bytes)`, `base64.decode(string)` (cel-go's encoders);
 * - `json.unmarshal(s)`, `json.marshal(v)`;
 * - `lists.setAtIndex(l, i, v)`, `lists.insertAtIndex(l, i, v)`, `lists.removeAtIndex(l, i)`;
 * - `m.merge(other)` (the other map's keys win), `m.deepMerge(other)` (kro's main branch: maps
 *   under the same key are merged too);
 * - `s.reverse()` (cel-go's strings extension, version 3), `strings.quote(s)`, and
 *   `cel.bind(x, init, body)` (the bindings extension: see `expandMacroCalls`);
 * - `omit()`: a value that leaves the template field (or list element) holding it out of the
 *   rendered resource (kro's `CELOmitFunction`, KREP-017); it supports no operation.
 *
 * Deterministic, as kro's are: a render gives the same output every time.
 */

import { createHash } from 'node:crypto';
import {
  celFunc,
  celList,
  celMap,
  celMethod,
  CelScalar,
  isCelMap,
  listType,
  mapType,
  type CelList,
  type CelMap,
  type CelUint,
  type CelValue,
} from '@bufbuild/cel';
import type { CelExtension } from '../cel/cel-environment.js';
import { toCelValue } from '../cel/cel-value.js';
import { fromCelValue } from './cel-json.js';
import { OMIT_VALUE } from './omit-value.js';
import { RUNTIME_FUNCTIONS } from './runtime-library.js';

const { INT, STRING, BYTES, DYN } = CelScalar;
const LIST = listType(DYN);
const MAP = mapType(DYN, DYN);
const ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyz';

function sha256(text: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(text, 'utf8').digest());
}

/** `random.seededString`: see the module comment. */
export function seededString(length: bigint, seed: string): string {
  if (length <= 0n) throw new Error('random.seededString length must be positive');
  const hash = sha256(seed);
  let out = '';
  for (let i = 0; i < Number(length); i++) {
    const start = (i * 4) % hash.length;
    const word =
      (((hash[start] ?? 0) << 24) |
        ((hash[start + 1] ?? 0) << 16) |
        ((hash[start + 2] ?? 0) << 8) |
        (hash[start + 3] ?? 0)) >>>
      0;
    out += ALPHANUMERIC[word % ALPHANUMERIC.length] ?? '';
  }
  return out;
}

/** `random.seededInt`: see the module comment. */
export function seededInt(min: bigint, max: bigint, seed: string): bigint {
  if (min >= max) throw new Error('random.seededInt min must be less than max');
  const hash = sha256(seed);
  let value = 0n;
  for (let i = 0; i < 8; i++) value = (value << 8n) | BigInt(hash[i] ?? 0);
  return min + (value % (max - min));
}

/** FNV-1a, 64 bits, over the UTF-8 bytes, as Go's `hash/fnv` sums it (big-endian). */
export function fnv64a(text: string): Uint8Array {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  const out = new Uint8Array(8);
  for (let i = 7; i >= 0; i--) {
    out[i] = Number(hash & 0xffn);
    hash >>= 8n;
  }
  return out;
}

function index(list: CelList, at: bigint, name: string, inclusive: boolean): number {
  const size = list.size;
  if (at < 0n || at > BigInt(size) || (!inclusive && at === BigInt(size))) {
    throw new Error(`lists.${name}: index ${at} out of bounds [0, ${size}${inclusive ? ']' : ')'}`);
  }
  return Number(at);
}

/** kro's CEL libraries, as an extension of the API server's environment. */
export const KRO_CEL_EXTENSION: CelExtension = {
  name: 'kro',
  funcs: [
    celFunc('random.seededString', [INT, STRING], STRING, seededString),
    celFunc('random.seededInt', [INT, INT, STRING], INT, seededInt),
    celFunc('hash.fnv64a', [STRING], BYTES, fnv64a),
    celFunc('hash.sha256', [STRING], BYTES, sha256),
    celFunc('hash.md5', [STRING], BYTES, (text) => {
      return new Uint8Array(createHash('md5').update(text, 'utf8').digest());
    }),
    celFunc('base64.encode', [BYTES], STRING, (bytes) => Buffer.from(bytes).toString('base64')),
    celFunc('base64.decode', [STRING], BYTES, (text) => {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new Error('base64.decode: invalid base64');
      return new Uint8Array(Buffer.from(text, 'base64'));
    }),
    celFunc('json.unmarshal', [STRING], DYN, (text) => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw new Error(`json.unmarshal failed to parse JSON: ${(error as Error).message}`);
      }
      return toCelValue(value, undefined);
    }),
    celFunc('json.marshal', [DYN], STRING, (value) => JSON.stringify(fromCelValue(value))),
    celFunc('lists.setAtIndex', [LIST, INT, DYN], LIST, (list, at, value) => {
      const items = [...list];
      items[index(list, at, 'setAtIndex', false)] = value;
      return celList(items);
    }),
    celFunc('lists.insertAtIndex', [LIST, INT, DYN], LIST, (list, at, value) => {
      const items = [...list];
      items.splice(index(list, at, 'insertAtIndex', true), 0, value);
      return celList(items);
    }),
    celFunc('lists.removeAtIndex', [LIST, INT], LIST, (list, at) => {
      const items = [...list];
      items.splice(index(list, at, 'removeAtIndex', false), 1);
      return celList(items);
    }),
    celFunc('omit', [], DYN, () => OMIT_VALUE as unknown as CelValue),
    // cel-go's strings extension at its latest version (kro's; the API server's stops before
    // it): a string reversed by code points.
    celMethod('reverse', STRING, [], STRING, function () {
      return Array.from(this).reverse().join(''); // by code point, as Go reverses runes
    }),
    celMethod('merge', MAP, [MAP], MAP, function (other) {
      // Keys as they are (string, int, bool, uint): the other map's win.
      const merged = new Map<bigint | string | boolean | CelUint, CelValue>();
      for (const [key, value] of this.entries()) merged.set(key, value);
      for (const [key, value] of other.entries()) merged.set(key, value);
      return celMap(merged);
    }),
    celMethod('deepMerge', MAP, [MAP], MAP, function (other) {
      return deepMerge(this, other);
    }),
    // kro's runtime library: custom status conditions (`runtime-library.ts`).
    ...RUNTIME_FUNCTIONS,
  ],
};

/**
 * kro's `deepMerge` (`pkg/cel/library/maps.go`): `other` merged onto `self`, a map under the
 * same key in both merged the same way, anything else from `other`.
 */
function deepMerge(self: CelMap, other: CelMap): CelMap {
  if (other.size === 0) return self;
  if (self.size === 0) return other;
  const merged = new Map<bigint | string | boolean | CelUint, CelValue>();
  for (const [key, value] of self.entries()) merged.set(key, value);
  for (const [key, value] of other.entries()) {
    const mine = merged.get(key);
    merged.set(key, isCelMap(mine) && isCelMap(value) ? deepMerge(mine, value) : value);
  }
  return celMap(merged);
}

/** The qualified names of kro's functions (`random.seededString`): not variables. */
export const KRO_FUNCTION_NAMES: ReadonlySet<string> = new Set([
  'random.seededString',
  'random.seededInt',
  'hash.fnv64a',
  'hash.sha256',
  'hash.md5',
  'base64.encode',
  'base64.decode',
  'json.unmarshal',
  'json.marshal',
  'lists.setAtIndex',
  'lists.insertAtIndex',
  'lists.removeAtIndex',
  'lists.range',
  // cel-go's strings extension, which kro enables at its latest version.
  'strings.quote',
  // The runtime library (v0.9.x), bound only in status conditions: `runtime` is no variable.
  'runtime.newCondition',
  'runtime.condition',
]);
