/**
 * Which strings the API server takes as an IP address or a CIDR block in a legacy field (a pod's
 * DNS nameservers, a host alias, a NetworkPolicy's `ipBlock`): k8s.io/utils `net.ParseIPSloppy`
 * and `ParseCIDRSloppy`, Go's `net.ParseIP` and `ParseCIDR` as they were before Go 1.17, which
 * allow leading zeros in an IPv4 part (`010.0.0.1`, read as decimal) and no IPv6 zone
 * (`fe80::1%eth0`).
 */

const IPV4_PART = /^[0-9]+$/;

/** node:net's `isIPv6`, node:net loaded by the first address checked, not by every start. */
const isIPv6 = (value: string): boolean => process.getBuiltinModule('node:net').isIPv6(value);

/** Whether `value` is an IPv4 address, each of its four parts decimal, 0-255, leading zeros allowed. */
function isSloppyIpv4(value: string): boolean {
  const parts = value.split('.');
  return parts.length === 4 && parts.every((part) => IPV4_PART.test(part) && Number(part) <= 255);
}

/** Whether `ParseIPSloppy` reads `value` as an IP address. */
export function isSloppyIpAddress(value: string): boolean {
  if (!value.includes(':')) return isSloppyIpv4(value);
  if (value.includes('%')) return false;
  if (isIPv6(value)) return true;
  // An IPv6 address ending in an IPv4 one whose parts have leading zeros (`::ffff:010.0.0.1`).
  const lastColon = value.lastIndexOf(':');
  const tail = value.slice(lastColon + 1);
  if (!tail.includes('.') || !isSloppyIpv4(tail)) return false;
  const canonicalTail = tail
    .split('.')
    .map((part) => String(Number(part)))
    .join('.');
  return isIPv6(value.slice(0, lastColon + 1) + canonicalTail);
}

/** An address as Go's `net.IP` holds it: IPv4 (an IPv4-mapped IPv6 address too, as `To4` reads it) or IPv6. */
export interface IpValue {
  readonly bits: 32 | 128;
  readonly value: bigint;
}

/** `ParseIPSloppy`'s address, or `undefined` where it gives none. */
export function parseSloppyIp(text: string): IpValue | undefined {
  if (!isSloppyIpAddress(text)) return undefined;
  if (!text.includes(':')) return { bits: 32, value: ipv4Value(text) };
  const value = ipv6Value(text);
  return value >> 32n === 0xffffn ? { bits: 32, value: value & 0xffffffffn } : { bits: 128, value };
}

/** apimachinery `IsValidIP`'s message. */
export const INVALID_IP_MESSAGE = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/** A CIDR block: its family, its network address (the host bits cleared) and its prefix length. */
export interface CidrBlock {
  readonly bits: 32 | 128;
  readonly network: bigint;
  readonly prefix: number;
}

/** `ParseCIDRSloppy`: `address/prefix`, the prefix decimal and within the family's bits. */
export function parseSloppyCidr(value: string): CidrBlock | undefined {
  const slash = value.indexOf('/');
  if (slash < 0) return undefined;
  const address = value.slice(0, slash);
  const prefixText = value.slice(slash + 1);
  if (!/^[0-9]{1,3}$/.test(prefixText) || !isSloppyIpAddress(address)) return undefined;
  const bits = address.includes(':') ? 128 : 32;
  const prefix = Number(prefixText);
  if (prefix > bits) return undefined;
  const whole = bits === 32 ? ipv4Value(address) : ipv6Value(address);
  const hostBits = BigInt(bits - prefix);
  return { bits, network: (whole >> hostBits) << hostBits, prefix };
}

/** Whether `inner` lies in `outer`, as Go's `IPNet.Contains` of `inner`'s address: same family. */
export function cidrContains(outer: CidrBlock, inner: CidrBlock): boolean {
  if (outer.bits !== inner.bits) return false;
  const hostBits = BigInt(outer.bits - outer.prefix);
  return inner.network >> hostBits === outer.network >> hostBits;
}

function ipv4Value(address: string): bigint {
  return address.split('.').reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n);
}

/** An IPv6 address already known valid (`::` expanded, an IPv4 tail read as two groups). */
function ipv6Value(address: string): bigint {
  let text = address;
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    const v4 = ipv4Value(text.slice(lastColon + 1));
    text = `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return all.reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n);
}
