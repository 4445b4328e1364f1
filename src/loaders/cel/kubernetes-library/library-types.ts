/**
 * The API server's library types as CEL type values: `type(ip("10.0.0.1")) == net.IP`. The
 * library values are maps here (`opaque-value.ts`), so CEL's `type()` is replaced by one that
 * gives a library value its declared type (`net.IP`, `net.CIDR`, `kubernetes.Quantity`,
 * `kubernetes.URL`, `kubernetes.Semver`) and any other value the standard answer; the names a
 * rule may write as values (`net.IP`, `net.CIDR`, declared by the ip and cidr libraries) are
 * bound when a rule uses one.
 */

import { celEnv, celFunc, CelScalar, objectType, type CelFunc, type CelType } from '@bufbuild/cel';
import { OpaqueValue } from '../opaque-value.js';

const standardType = [...celEnv().funcs].find((func) => func.id === 'type(dyn)');

/** CEL's `type()`, with the library types' names. */
export const typeFunction: CelFunc = celFunc('type', [CelScalar.DYN], CelScalar.TYPE, (value) => {
  const name = value instanceof OpaqueValue ? value.celTypeName : undefined;
  if (name !== undefined) return objectType(name);
  const type = standardType?.call(0, undefined, [value]);
  if (type === undefined) throw new Error("found no matching overload for 'type'");
  return type as CelType;
});

/** A type name a rule may write as a value, and a function of the library that declares it. */
interface TypeIdentifier {
  readonly type: CelType;
  readonly declaredWith: string;
}

/** The library types a rule may name (`type(x) == net.IP`), by name. */
export const LIBRARY_TYPE_IDENTIFIERS: ReadonlyMap<string, TypeIdentifier> = new Map([
  ['net.IP', { type: objectType('net.IP'), declaredWith: 'isIP' }],
  ['net.CIDR', { type: objectType('net.CIDR'), declaredWith: 'isCIDR' }],
]);

/** The bindings of the library type names, to add to a rule's variables. */
export const LIBRARY_TYPE_BINDINGS: Readonly<Record<string, CelType>> = Object.fromEntries(
  [...LIBRARY_TYPE_IDENTIFIERS].map(([name, { type }]) => [name, type]),
);
