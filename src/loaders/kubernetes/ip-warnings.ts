/**
 * The API server's warnings for an IP address or CIDR block written in a form it still takes but
 * means to refuse (apimachinery `GetWarningsForIP` and `GetWarningsForCIDR`, from 1.33; KEP-4858):
 * an IPv4 part with a leading zero (`05.06.07.08`, which some parsers read as octal), an
 * IPv4-mapped IPv6 address (`::ffff:1.2.3.4`), an IPv6 address not in RFC 5952's form
 * (`2001:db8:0:0::2`), a CIDR block with bits set past its prefix (`192.12.2.8/24`). Each says
 * what to write instead. Only values that parse are judged: the others are errors already. From
 * 1.36 the API server refuses all but the IPv6 form: those are errors then ({@link Refuse}).
 */

import type { Path, Warn } from './api-warnings.js';
import { invalidValue } from './go-field-error.js';
import { parseSloppyCidr, parseSloppyIp, type IpValue } from './ip-address.js';

/**
 * Reports an error at a path, in Go's words (`Invalid value: "010.0.0.1": must not have leading
 * 0s`): given from Kubernetes 1.36, whose API server has `StrictIPCIDRValidation` on by default
 * (KEP-4858, beta), so that a created object's legacy IP and CIDR fields refuse the forms
 * earlier releases only warned of (apimachinery `IsValidIPForLegacyField` and
 * `IsValidCIDRForLegacyField`, strict). Only the RFC 5952 warning of an IPv6 value stays a
 * warning.
 */
export type Refuse = (path: Path, message: string) => void;

/** The release from which {@link Refuse} is given: `StrictIPCIDRValidation` on by default. */
export const STRICT_IP_RELEASE = '1.36';

/** Go's strict error for an address `value` that parses as the API server's sloppy parser reads it. */
function strictIpError(value: string): string | undefined {
  const ip = parseSloppyIp(value);
  if (ip === undefined) return undefined;
  if (hasLeadingZero(value)) return 'must not have leading 0s';
  if (ip.bits === 32 && value.includes(':')) return 'must not be an IPv4-mapped IPv6 address';
  return undefined;
}

/** Go's strict error for a CIDR block `value` that parses sloppily (one: the first found). */
function strictCidrError(value: string): string | undefined {
  const block = parseSloppyCidr(value);
  const slash = value.indexOf('/');
  const address = parseSloppyIp(value.slice(0, slash));
  if (block === undefined || address === undefined) return undefined;
  const prefixText = value.slice(slash + 1);
  if (
    hasLeadingZero(value.slice(0, slash)) ||
    (prefixText.length > 1 && prefixText.startsWith('0'))
  ) {
    return 'must not have leading 0s in IP or prefix length';
  }
  if (address.bits === 32 && value.slice(0, slash).includes(':')) {
    return 'must not have an IPv4-mapped IPv6 address';
  }
  const hostBits = BigInt(block.bits - block.prefix);
  if ((address.value >> hostBits) << hostBits !== address.value) {
    return 'must not have bits set beyond the prefix length';
  }
  return undefined;
}

/** The warning for an IP address `value`, if any. */
export function ipAddressWarning(value: string): string | undefined {
  const ip = parseSloppyIp(value);
  if (ip === undefined) return undefined;
  if (hasLeadingZero(value) || (ip.bits === 32 && value.includes(':'))) {
    return `non-standard IP address ${JSON.stringify(value)} will be considered invalid in a future Kubernetes release: use ${JSON.stringify(formatIp(ip))}`;
  }
  if (ip.bits === 128 && formatIp(ip) !== value) {
    return `IPv6 address ${JSON.stringify(value)} should be in RFC 5952 canonical format (${JSON.stringify(formatIp(ip))})`;
  }
  return undefined;
}

/**
 * Warns at `path` of an IP address `value` in a form to be refused (anything but a string: none),
 * or refuses it, when `refuse` is given and the strict check does.
 */
export function warnOfIp(value: unknown, path: Path, warn: Warn, refuse?: Refuse): void {
  if (typeof value !== 'string') return;
  const error = refuse === undefined ? undefined : strictIpError(value);
  if (error !== undefined) {
    refuse?.(path, invalidValue(value, error));
    return;
  }
  const warning = ipAddressWarning(value);
  if (warning !== undefined) warn(path, warning);
}

/**
 * A warning in the words of 1.36's API server, which says a non-standard value `is invalid` where
 * earlier ones said it `will be considered invalid in a future Kubernetes release` (apimachinery
 * `GetWarningsForIP` / `GetWarningsForCIDR`): for a field it still only warns of.
 */
export function strictWarning(warn: Warn): Warn {
  return (path, message) =>
    warn(
      path,
      message.replace(
        ' will be considered invalid in a future Kubernetes release:',
        ' is invalid:',
      ),
    );
}

/** As {@link warnOfIp}, of a CIDR block. */
export function warnOfCidr(value: unknown, path: Path, warn: Warn, refuse?: Refuse): void {
  if (typeof value !== 'string') return;
  const error = refuse === undefined ? undefined : strictCidrError(value);
  if (error !== undefined) {
    refuse?.(path, invalidValue(value, error));
    return;
  }
  for (const warning of cidrWarnings(value)) warn(path, warning);
}

/** The warnings for a CIDR block `value`. */
export function cidrWarnings(value: string): string[] {
  const block = parseSloppyCidr(value);
  const slash = value.indexOf('/');
  const address = parseSloppyIp(value.slice(0, slash));
  if (block === undefined || address === undefined) return [];
  const mapped = address.bits === 32 && value.slice(0, slash).includes(':');
  // Go's IPNet of a mapped address is an IPv4 one: its prefix counts the IPv4 bits.
  const networkPrefix = mapped ? block.prefix - 96 : block.prefix;
  const network = `${formatIp({ bits: address.bits, value: mapped ? block.network & 0xffffffffn : block.network })}/${networkPrefix}`;
  const warnings: string[] = [];
  const hostBits = BigInt(block.bits - block.prefix);
  if ((address.value >> hostBits) << hostBits !== address.value) {
    warnings.push(
      `CIDR value ${JSON.stringify(value)} is ambiguous in this context (should be ${JSON.stringify(network)} or ${JSON.stringify(`${formatIp(address)}/${block.bits}`)}?)`,
    );
  }
  const prefixText = value.slice(slash + 1);
  if (
    hasLeadingZero(value.slice(0, slash)) ||
    mapped ||
    (prefixText.length > 1 && prefixText.startsWith('0'))
  ) {
    warnings.push(
      `non-standard CIDR value ${JSON.stringify(value)} will be considered invalid in a future Kubernetes release: use ${JSON.stringify(network)}`,
    );
  }
  const canonical = `${formatIp(address)}/${block.prefix}`;
  if (warnings.length === 0 && address.bits === 128 && canonical !== value) {
    warnings.push(
      `IPv6 CIDR value ${JSON.stringify(value)} should be in RFC 5952 canonical format (${JSON.stringify(canonical)})`,
    );
  }
  return warnings;
}

/** Whether an IPv4 part of an address (alone, or an IPv6 address's tail) has a leading zero. */
function hasLeadingZero(address: string): boolean {
  const tail = address.slice(address.lastIndexOf(':') + 1);
  return (
    tail.includes('.') && tail.split('.').some((part) => part.length > 1 && part.startsWith('0'))
  );
}

/**
 * An address as Go's `net.IP.String` writes it: IPv4 dotted, IPv6 in RFC 5952's form (lower
 * case, no leading zeros, the first longest run of two or more zero groups as `::`).
 */
function formatIp({ bits, value }: IpValue): string {
  if (bits === 32) {
    return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
  }
  const groups = Array.from({ length: 8 }, (_, i) =>
    Number((value >> BigInt(112 - 16 * i)) & 0xffffn),
  );
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = (list: number[]): string => list.map((group) => group.toString(16)).join(':');
  if (bestStart < 0) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLength))}`;
}
