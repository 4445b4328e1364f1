/**
 * Which strings the API server takes as an IP address in a legacy field (a pod's DNS
 * nameservers, a host alias): k8s.io/utils `net.ParseIPSloppy`, Go's `net.ParseIP` as it was
 * before Go 1.17, which allows leading zeros in an IPv4 part (`010.0.0.1`, read as decimal) and
 * no IPv6 zone (`fe80::1%eth0`).
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

/** apimachinery `IsValidIP`'s message. */
export const INVALID_IP_MESSAGE = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
