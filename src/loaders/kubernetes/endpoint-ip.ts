/**
 * The addresses the API server refuses as an endpoint or a Service's external IP, though they
 * parse (k8s.io/kubernetes `pkg/apis/core/validation` `ValidateEndpointIP`, once
 * `ValidateNonSpecialIP`): the unspecified address, loopback, link-local unicast and link-local
 * multicast, which are nonsensical or the node's own (a metadata service). An IPv4-mapped IPv6
 * address is judged as its IPv4 address, as Go's `net.IP` methods judge it.
 */

import { parseSloppyIp } from './ip-address.js';

/** `ValidateEndpointIP`'s messages for `text`: `must be a valid IP address` when it does not parse. */
export function endpointIpProblems(text: string): string[] {
  const ip = parseSloppyIp(text);
  if (ip === undefined) return ['must be a valid IP address'];
  const { bits, value } = ip;
  const problems: string[] = [];
  if (value === 0n) problems.push(`may not be unspecified (${text})`);
  if (bits === 32 ? value >> 24n === 127n : value === 1n) {
    problems.push('may not be in the loopback range (127.0.0.0/8, ::1/128)');
  }
  if (bits === 32 ? value >> 16n === 0xa9fen : value >> 118n === 0x3fan) {
    problems.push('may not be in the link-local range (169.254.0.0/16, fe80::/10)');
  }
  // Go's IsLinkLocalMulticast: 224.0.0.0/24, or ff02::/16 with any flags (ffX2::).
  if (bits === 32 ? value >> 8n === 0xe00000n : ((value >> 112n) & 0xff0fn) === 0xff02n) {
    problems.push('may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)');
  }
  return problems;
}
