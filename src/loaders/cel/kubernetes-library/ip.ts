/**
 * The Kubernetes `ip` library (Kubernetes 1.30): `ip(s)` parses an IPv4 or IPv6 address (no
 * zone, no IPv4-mapped IPv6 address, no leading zeros), `isIP(s)` says whether it would,
 * `ip.isCanonical(s)` whether `s` is the address's one canonical form, and an address answers
 * `family()`, `isUnspecified()`, `isLoopback()`, `isLinkLocalMulticast()`,
 * `isLinkLocalUnicast()` and `isGlobalUnicast()`. `string(ip)` is its canonical form, and two
 * addresses are `==` when they are the same address, however written.
 */

import { celFunc, celMethod, CelScalar, type CelFunc } from '@bufbuild/cel';
import { charge, sizeCost } from '../cost-budget.js';
import { expectTarget, OPAQUE_TYPE, OpaqueValue, STRING_CONVERSION } from '../opaque-value.js';
import { parseIpAddress, type IpAddress } from './ip-address.js';

/** An address as a CEL value (`net.IP`). */
export class Ip extends OpaqueValue {
  override get celTypeName(): string {
    return 'net.IP';
  }

  constructor(readonly address: IpAddress) {
    super('net.IP', address.toString());
  }

  override toCelString(): string {
    return this.address.toString();
  }
}

/** Parses an address for the library, charged for the length of the text. */
export function toIp(text: string): Ip {
  charge(sizeCost(text.length));
  return new Ip(parseIpAddress(text));
}

function isIp(text: string): boolean {
  try {
    toIp(text);
    return true;
  } catch {
    return false;
  }
}

const PREDICATES: readonly (readonly [string, (address: IpAddress) => boolean])[] = [
  ['isUnspecified', (a) => a.isUnspecified],
  ['isLoopback', (a) => a.isLoopback],
  ['isLinkLocalMulticast', (a) => a.isLinkLocalMulticast],
  ['isLinkLocalUnicast', (a) => a.isLinkLocalUnicast],
  ['isGlobalUnicast', (a) => a.isGlobalUnicast],
];

export const ipLibrary: readonly CelFunc[] = [
  celFunc('ip', [CelScalar.STRING], OPAQUE_TYPE, toIp),
  celFunc('isIP', [CelScalar.STRING], CelScalar.BOOL, isIp),
  celFunc('ip.isCanonical', [CelScalar.STRING], CelScalar.BOOL, (text) => {
    return toIp(text).address.toString() === text;
  }),
  celMethod('family', OPAQUE_TYPE, [], CelScalar.INT, function () {
    return BigInt(expectTarget(this, Ip, 'family').address.family);
  }),
  ...PREDICATES.map(([name, test]) =>
    celMethod(name, OPAQUE_TYPE, [], CelScalar.BOOL, function () {
      return test(expectTarget(this, Ip, name).address);
    }),
  ),
  STRING_CONVERSION,
];
