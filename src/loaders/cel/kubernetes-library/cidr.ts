/**
 * The Kubernetes `cidr` library (Kubernetes 1.30): `cidr(s)` parses an IP prefix such as
 * `10.0.0.0/8` or `2001:db8::/32` (its address may have host bits set), `isCIDR(s)` says
 * whether it would, and a prefix answers `containsIP(ip | string)`,
 * `containsCIDR(cidr | string)`, `ip()` (its address, host bits and all), `masked()` (host
 * bits cleared) and `prefixLength()`. `string(cidr)` is `address/length`, and two prefixes are
 * `==` when address and length both are (`cidr('10.0.0.1/8') != cidr('10.0.0.0/8')`).
 */

import { celFunc, celMethod, CelScalar, type CelFunc } from '@bufbuild/cel';
import { charge, sizeCost } from '../cost-budget.js';
import { expectTarget, OPAQUE_TYPE, OpaqueValue, STRING_CONVERSION } from '../opaque-value.js';
import { Ip, toIp } from './ip.js';
import { parseIpPrefix, type IpPrefix } from './ip-address.js';

/** A prefix as a CEL value (`net.CIDR`). */
export class Cidr extends OpaqueValue {
  override get celTypeName(): string {
    return 'net.CIDR';
  }

  constructor(readonly prefix: IpPrefix) {
    super('net.CIDR', prefix.toString());
  }

  override toCelString(): string {
    return this.prefix.toString();
  }
}

function toCidr(text: string): Cidr {
  charge(sizeCost(text.length));
  try {
    return new Cidr(parseIpPrefix(text));
  } catch (error) {
    throw new Error(
      `network address parse error during conversion from string: ${(error as Error).message}`,
    );
  }
}

function isCidr(text: string): boolean {
  try {
    toCidr(text);
    return true;
  } catch {
    return false;
  }
}

/** The prefix a method is called on. */
function prefixOf(target: unknown, method: string): IpPrefix {
  return expectTarget(target, Cidr, method).prefix;
}

export const cidrLibrary: readonly CelFunc[] = [
  celFunc('cidr', [CelScalar.STRING], OPAQUE_TYPE, toCidr),
  celFunc('isCIDR', [CelScalar.STRING], CelScalar.BOOL, isCidr),
  celMethod('containsIP', OPAQUE_TYPE, [CelScalar.STRING], CelScalar.BOOL, function (text) {
    return prefixOf(this, 'containsIP').contains(toIp(text).address);
  }),
  celMethod('containsIP', OPAQUE_TYPE, [OPAQUE_TYPE], CelScalar.BOOL, function (ip) {
    const prefix = prefixOf(this, 'containsIP');
    return prefix.contains(expectTarget(ip, Ip, 'containsIP').address);
  }),
  celMethod('containsCIDR', OPAQUE_TYPE, [CelScalar.STRING], CelScalar.BOOL, function (text) {
    return prefixOf(this, 'containsCIDR').containsPrefix(toCidr(text).prefix);
  }),
  celMethod('containsCIDR', OPAQUE_TYPE, [OPAQUE_TYPE], CelScalar.BOOL, function (other) {
    const prefix = prefixOf(this, 'containsCIDR');
    return prefix.containsPrefix(expectTarget(other, Cidr, 'containsCIDR').prefix);
  }),
  celMethod('ip', OPAQUE_TYPE, [], OPAQUE_TYPE, function () {
    return new Ip(prefixOf(this, 'ip').address);
  }),
  celMethod('masked', OPAQUE_TYPE, [], OPAQUE_TYPE, function () {
    return new Cidr(prefixOf(this, 'masked').masked());
  }),
  celMethod('prefixLength', OPAQUE_TYPE, [], CelScalar.INT, function () {
    return BigInt(prefixOf(this, 'prefixLength').length);
  }),
  STRING_CONVERSION,
];
