/**
 * IP addresses and prefixes as the API server's CEL libraries read them: Go's `netip.ParseAddr`
 * and `netip.ParsePrefix` (strict: no leading zeros in IPv4 fields, at most four hex digits in an
 * IPv6 group, exactly one `::` that stands for at least one group), then Kubernetes' own refusals
 * (zones, IPv4-mapped IPv6 addresses). Errors carry Go's wording, as the API server reports them.
 *
 * `node:net` is not used for parsing: `isIPv4` and `isIPv6` accept inputs Go refuses (zones),
 * and neither gives the address's bytes.
 */

/** Why a string is not an address: Go's `ParseAddr` error text. */
class AddressSyntaxError extends Error {
  constructor(input: string, reason: string, at?: string) {
    super(
      `ParseAddr(${JSON.stringify(input)}): ${reason}${at === undefined ? '' : ` (at ${JSON.stringify(at)})`}`,
    );
  }
}

/** An IPv4 (4 bytes) or IPv6 (16 bytes) address, without zone. */
export class IpAddress {
  constructor(readonly bytes: readonly number[]) {}

  get family(): 4 | 6 {
    return this.bytes.length === 4 ? 4 : 6;
  }

  /** Group `i` (0-7) of an IPv6 address. */
  group(i: number): number {
    return ((this.bytes[2 * i] as number) << 8) | (this.bytes[2 * i + 1] as number);
  }

  get isUnspecified(): boolean {
    return this.bytes.every((b) => b === 0);
  }

  get isLoopback(): boolean {
    if (this.family === 4) return this.bytes[0] === 127;
    return this.bytes.every((b, i) => b === (i === 15 ? 1 : 0));
  }

  get isMulticast(): boolean {
    const first = this.bytes[0] as number;
    return this.family === 4 ? (first & 0xf0) === 0xe0 : first === 0xff;
  }

  /** 224.0.0.0/24, ff02::/16 (any flags). */
  get isLinkLocalMulticast(): boolean {
    const [a, b, c] = this.bytes as [number, number, number];
    if (this.family === 4) return a === 224 && b === 0 && c === 0;
    return (this.group(0) & 0xff0f) === 0xff02;
  }

  /** 169.254.0.0/16, fe80::/10. */
  get isLinkLocalUnicast(): boolean {
    const [a, b] = this.bytes as [number, number];
    if (this.family === 4) return a === 169 && b === 254;
    return (this.group(0) & 0xffc0) === 0xfe80;
  }

  /** Go's `IsGlobalUnicast`: private and unique-local addresses are global unicast too. */
  get isGlobalUnicast(): boolean {
    if (this.family === 4 && this.bytes.every((b) => b === 255)) return false;
    return !this.isUnspecified && !this.isLoopback && !this.isMulticast && !this.isLinkLocalUnicast;
  }

  /** Go's `Addr.String()`: the one canonical form (RFC 5952 for IPv6). */
  toString(): string {
    if (this.family === 4) return this.bytes.join('.');
    // The longest run of two or more zero groups (the first of equals) becomes `::`.
    let zeroStart = -1;
    let zeroLength = 1;
    for (let i = 0; i < 8; i++) {
      let j = i;
      while (j < 8 && this.group(j) === 0) j++;
      if (j - i > zeroLength) [zeroStart, zeroLength] = [i, j - i];
    }
    let text = '';
    for (let i = 0; i < 8; i++) {
      if (i === zeroStart) {
        text += '::';
        i += zeroLength - 1;
        continue;
      }
      if (i > 0 && i !== zeroStart + zeroLength) text += ':';
      text += this.group(i).toString(16);
    }
    return text;
  }
}

/** Parses like Go's `netip.ParseAddr`, zones included; throws its error. */
function parseGoAddr(input: string): { address: IpAddress; zone: string } {
  for (const char of input) {
    if (char === '.') return { address: parseIpv4(input, input, 0), zone: '' };
    if (char === ':') return parseIpv6(input);
    if (char === '%') throw new AddressSyntaxError(input, 'missing IPv6 address');
  }
  throw new AddressSyntaxError(input, 'unable to parse IP');
}

/** The IPv4 address in `input` from `start` on (all of it, or the tail of an IPv6 address). */
function parseIpv4(input: string, text: string, start: number): IpAddress {
  const s = text.slice(start);
  const fields: number[] = [];
  let value = 0;
  let digits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (digits === 1 && value === 0) {
        throw new AddressSyntaxError(input, 'IPv4 field has octet with leading zero');
      }
      value = value * 10 + c - 48;
      digits++;
      if (value > 255) throw new AddressSyntaxError(input, 'IPv4 field has value >255');
    } else if (c === 46) {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') {
        throw new AddressSyntaxError(input, 'IPv4 field must have at least one digit', s.slice(i));
      }
      if (fields.length === 3) throw new AddressSyntaxError(input, 'IPv4 address too long');
      fields.push(value);
      value = 0;
      digits = 0;
    } else {
      throw new AddressSyntaxError(input, 'unexpected character', s.slice(i));
    }
  }
  if (fields.length < 3) throw new AddressSyntaxError(input, 'IPv4 address too short');
  fields.push(value);
  return new IpAddress(fields);
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

function parseIpv6(input: string): { address: IpAddress; zone: string } {
  let s = input;
  let zone = '';
  const percent = s.indexOf('%');
  if (percent !== -1) {
    zone = s.slice(percent + 1);
    s = s.slice(0, percent);
    if (zone === '') throw new AddressSyntaxError(input, 'zone must be a non-empty string');
  }
  const bytes: number[] = new Array<number>(16).fill(0);
  let ellipsis = -1;
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === '') return { address: new IpAddress(bytes), zone };
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const digit = hexDigit(s.charCodeAt(off));
      if (digit === -1) break;
      acc = acc * 16 + digit;
      if (off > 3) {
        throw new AddressSyntaxError(input, 'each group must have 4 or less digits', s);
      }
    }
    if (off === 0) {
      throw new AddressSyntaxError(
        input,
        'each colon-separated field must have at least one digit',
        s,
      );
    }
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) {
        throw new AddressSyntaxError(
          input,
          'embedded IPv4 address must replace the final 2 fields of the address',
          s,
        );
      }
      if (i + 4 > 16) {
        throw new AddressSyntaxError(
          input,
          'too many hex fields to fit an embedded IPv4 at the end of the address',
          s,
        );
      }
      const end = input.length - (zone === '' ? 0 : zone.length + 1);
      bytes.splice(i, 4, ...parseIpv4(input, input.slice(0, end), end - s.length).bytes);
      s = '';
      i += 4;
      break;
    }
    bytes[i] = acc >> 8;
    bytes[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s === '') break;
    if (s[0] !== ':') throw new AddressSyntaxError(input, 'unexpected character, want colon', s);
    if (s.length === 1) {
      throw new AddressSyntaxError(input, 'colon must be followed by more characters', s);
    }
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) throw new AddressSyntaxError(input, 'multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s === '') break;
    }
  }
  if (s !== '') throw new AddressSyntaxError(input, 'trailing garbage after address', s);
  if (i < 16) {
    if (ellipsis < 0) throw new AddressSyntaxError(input, 'address string too short');
    const zeros = new Array<number>(16 - i).fill(0);
    bytes.splice(ellipsis, 0, ...zeros);
    bytes.length = 16;
  } else if (ellipsis >= 0) {
    throw new AddressSyntaxError(input, 'the :: must expand to at least one field of zeros', s);
  }
  return { address: new IpAddress(bytes), zone };
}

function isIpv4MappedIpv6(address: IpAddress): boolean {
  const b = address.bytes;
  return b.length === 16 && b.slice(0, 10).every((x) => x === 0) && b[10] === 255 && b[11] === 255;
}

/** Parses an address as the `ip()` function does; throws the API server's message. */
export function parseIpAddress(text: string): IpAddress {
  let parsed: { address: IpAddress; zone: string };
  try {
    parsed = parseGoAddr(text);
  } catch (error) {
    throw new Error(
      `IP Address ${JSON.stringify(text)} parse error during conversion from string: ${(error as Error).message}`,
    );
  }
  if (parsed.zone !== '') {
    throw new Error(`IP address ${JSON.stringify(text)} with zone value is not allowed`);
  }
  if (isIpv4MappedIpv6(parsed.address)) {
    throw new Error(`IPv4-mapped IPv6 address ${JSON.stringify(text)} is not allowed`);
  }
  return parsed.address;
}

/** An address and a prefix length; the address keeps its host bits (`ip()` returns them). */
export class IpPrefix {
  constructor(
    readonly address: IpAddress,
    readonly length: number,
  ) {}

  /** Whether the first `length` bits of `address` are this prefix's. */
  contains(address: IpAddress): boolean {
    return address.family === this.address.family && samePrefix(this.address, address, this.length);
  }

  /** Whether every address of `other` is in this prefix. */
  containsPrefix(other: IpPrefix): boolean {
    return other.length >= this.length && this.contains(other.address);
  }

  /** The prefix with its host bits cleared. */
  masked(): IpPrefix {
    const bytes = this.address.bytes.map((byte, i) => {
      const bits = Math.min(8, Math.max(0, this.length - 8 * i));
      return byte & ((0xff << (8 - bits)) & 0xff);
    });
    return new IpPrefix(new IpAddress(bytes), this.length);
  }

  toString(): string {
    return `${this.address.toString()}/${this.length}`;
  }
}

function samePrefix(a: IpAddress, b: IpAddress, bits: number): boolean {
  for (let i = 0; i < a.bytes.length && 8 * i < bits; i++) {
    const mask = (0xff << (8 - Math.min(8, bits - 8 * i))) & 0xff;
    if (((a.bytes[i] as number) & mask) !== ((b.bytes[i] as number) & mask)) return false;
  }
  return true;
}

/** Parses a prefix as the `cidr()` function does (Go's `netip.ParsePrefix`); throws its message. */
export function parseIpPrefix(text: string): IpPrefix {
  const fail = (reason: string): never => {
    throw new Error(
      `network address parse error during conversion from string: netip.ParsePrefix(${JSON.stringify(text)}): ${reason}`,
    );
  };
  const slash = text.lastIndexOf('/');
  if (slash === -1) fail("no '/'");
  let parsed: { address: IpAddress; zone: string } | undefined;
  try {
    parsed = parseGoAddr(text.slice(0, slash));
  } catch (error) {
    fail((error as Error).message);
  }
  const { address, zone } = parsed as { address: IpAddress; zone: string };
  if (zone !== '') fail('IPv6 zones cannot be present in a prefix');
  const bits = text.slice(slash + 1);
  if (!/^(0|[1-9][0-9]*)$/.test(bits)) fail(`bad bits after slash: ${JSON.stringify(bits)}`);
  const length = Number(bits);
  if (length > address.bytes.length * 8) fail('prefix length out of range');
  if (isIpv4MappedIpv6(address)) {
    throw new Error(`IPv4-mapped IPv6 address ${JSON.stringify(text)} is not allowed`);
  }
  return new IpPrefix(address, length);
}
