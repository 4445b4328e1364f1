/**
 * The string formats the API server checks in a custom resource besides those it also parses
 * (`string-formats.ts`): the rest of kube-openapi's `strfmt` registry that apiextensions keeps
 * (`supportedVersionedFormats`): `uri` (Go's `url.ParseRequestURI`), `email` (`net/mail`),
 * `hostname` (RFC 1034, letters and symbols of any script), `ipv4`, `ipv6`, `cidr`, `mac`
 * (`net.ParseMAC`), `uuid` and its versions 3, 4 and 5, `isbn`, `isbn10`, `isbn13`, `creditcard`
 * (its number's checksum), `ssn`, `hexcolor`, `rgbcolor`, `bsonobjectid` and `password` (any
 * string), and from Kubernetes 1.35 `k8s-short-name` and `k8s-long-name` (see
 * {@link FIRST_RELEASE}). Each answers whether a string is of its format. A format's name is read
 * without its dashes (`datetime` is `date-time`), as the API server's registry reads it. The
 * schema compiler asks here which strings of a value are not of their schema's format
 * (`formatProblems`).
 */

import { requestUriError } from './go-request-uri.js';
import {
  decodeBase64,
  isDateTime,
  isTypedFormat,
  parseDate,
  parseDuration,
} from './string-formats.js';
import { isSloppyIpAddress, parseSloppyCidr } from './kubernetes/ip-address.js';

const HOSTNAME =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const CREDIT_CARD =
  /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/;
const ISBN10 = /^(?:[0-9]{9}X|[0-9]{10})$/;
const ISBN13 = /^[0-9]{13}$/;
const HEX_COLOR = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const BYTE_VALUE = '(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])';
const RGB_COLOR = new RegExp(
  `^rgb\\(\\s*${BYTE_VALUE}\\s*,\\s*${BYTE_VALUE}\\s*,\\s*${BYTE_VALUE}\\s*\\)$`,
);
const SSN = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const BSON_OBJECT_ID = /^[0-9a-fA-F]{24}$/;
/** kube-openapi's `k8s-short-name`: a DNS label in lower case, and a dotted run of them. */
const SHORT_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LONG_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** `net.ParseMAC`: 6, 8 or 20 octets as pairs split by `:` or `-`, or as quads split by `.`. */
const MAC_PAIRS = /^[0-9a-fA-F]{2}([:-])[0-9a-fA-F]{2}(?:\1[0-9a-fA-F]{2})*$/;
const MAC_QUADS = /^[0-9a-fA-F]{4}(?:\.[0-9a-fA-F]{4})*$/;
const MAC_OCTETS = new Set([6, 8, 20]);
/** RFC 5322's `atext`, and any character beyond ASCII, as `net/mail` reads an atom. */
const ATOM = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~\u0080-\u{10FFFF}]+$/u;
const QUOTED_STRING = /^"(?:[^"\\\r\n]|\\.)*"$/;
/**
 * A display name: words that are atoms (dots allowed, as Go allows them) or quoted strings, and
 * the spaces between them. Each character is taken by exactly one branch (white space and atom
 * characters share one class: `\s` holds characters beyond ASCII too), so a name that does not
 * match fails in linear time: nested repetitions (`(\s*[atom]+)*`) backtrack exponentially over a
 * long run of letters before a character that fits none.
 */
const PHRASE = /^(?:[\sA-Za-z0-9!#$%&'*+\-/=?^_`{|}~.\u0080-\u{10FFFF}]|"(?:[^"\\\r\n]|\\.)*")*$/u;

/** The checks by format name, dashes removed as kube-openapi's registry removes them. */
const CHECKS: ReadonlyMap<string, (text: string) => boolean> = new Map([
  ['uri', (text: string) => requestUriError(text) === undefined],
  ['email', isEmailAddress],
  ['hostname', isHostname],
  ['ipv4', (text: string) => isSloppyIpAddress(text) && text.includes('.')],
  ['ipv6', isIpv6Address],
  ['cidr', (text: string) => parseSloppyCidr(text) !== undefined],
  ['mac', isMacAddress],
  ['uuid', (text: string) => UUID.test(text)],
  ['uuid3', (text: string) => UUID3.test(text)],
  ['uuid4', (text: string) => UUID4.test(text)],
  ['uuid5', (text: string) => UUID5.test(text)],
  ['isbn', (text: string) => isIsbn10(text) || isIsbn13(text)],
  ['isbn10', isIsbn10],
  ['isbn13', isIsbn13],
  ['creditcard', isCreditCard],
  ['ssn', (text: string) => text.length === 11 && SSN.test(text)],
  ['hexcolor', (text: string) => HEX_COLOR.test(text)],
  ['rgbcolor', (text: string) => RGB_COLOR.test(text)],
  ['bsonobjectid', (text: string) => BSON_OBJECT_ID.test(text)],
  ['password', () => true],
  ['k8sshortname', (text: string) => text.length <= 63 && SHORT_NAME.test(text)],
  ['k8slongname', (text: string) => text.length <= 253 && LONG_NAME.test(text)],
]);

/**
 * The formats the API server checks only from a release on, by that release's minor: those
 * apiextensions-apiserver's `supportedVersionedFormats` adds at 1.34, which a custom resource
 * is checked with from Kubernetes 1.35 (it is validated at the API server's compatibility
 * version, the release before its own); an older release drops the format and takes any string.
 */
const FIRST_RELEASE: ReadonlyMap<string, number> = new Map([
  ['k8sshortname', 35],
  ['k8slongname', 35],
]);

/**
 * The check of a format known here (by its name as written) in Kubernetes 1.`minor` (default
 * the newest), or undefined.
 */
function formatCheck(
  format: string,
  minor = Number.POSITIVE_INFINITY,
): ((text: string) => boolean) | undefined {
  const name = format.replaceAll('-', '');
  if ((FIRST_RELEASE.get(name) ?? 0) > minor) return undefined;
  return CHECKS.get(name);
}

/** `IsHostname`: the pattern, at most 255 characters, each label at most 63. */
function isHostname(text: string): boolean {
  return (
    HOSTNAME.test(text) && text.length <= 255 && text.split('.').every((part) => part.length <= 63)
  );
}

/** `govalidator.IsIPv6`: Go's `net.ParseIP` (no zone, no leading zeros) of a text with a `:`. */
function isIpv6Address(text: string): boolean {
  if (!text.includes(':') || text.includes('%')) return false;
  return process.getBuiltinModule('node:net').isIPv6(text);
}

function isMacAddress(text: string): boolean {
  if (text.length < 14) return false;
  if (MAC_PAIRS.test(text)) return MAC_OCTETS.has((text.length + 1) / 3);
  if (MAC_QUADS.test(text)) return MAC_OCTETS.has((2 * (text.length + 1)) / 5);
  return false;
}

/** Spaces and dashes are left out before an ISBN is read. */
const isbnDigits = (text: string): string => text.replace(/[\s-]+/g, '');

function isIsbn10(text: string): boolean {
  const digits = isbnDigits(text);
  if (!ISBN10.test(digits)) return false;
  let checksum = 0;
  for (let i = 0; i < 9; i++) checksum += (i + 1) * Number(digits[i]);
  checksum += 10 * (digits[9] === 'X' ? 10 : Number(digits[9]));
  return checksum % 11 === 0;
}

function isIsbn13(text: string): boolean {
  const digits = isbnDigits(text);
  if (!ISBN13.test(digits)) return false;
  let checksum = 0;
  for (let i = 0; i < 12; i++) checksum += (i % 2 === 0 ? 1 : 3) * Number(digits[i]);
  return Number(digits[12]) === (10 - (checksum % 10)) % 10;
}

/** A card number (its non-digits left out) of a known issuer, with a valid Luhn checksum. */
function isCreditCard(text: string): boolean {
  const digits = text.replace(/[^0-9]+/g, '');
  if (!CREDIT_CARD.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = Number(digits[i]);
    if (double) {
      digit *= 2;
      if (digit >= 10) digit = (digit % 10) + 1;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * `mail.ParseAddress` of one address: `local@domain`, or a display name and `<local@domain>`.
 * The local part is a dot-atom or a quoted string, the domain a dot-atom or a `[literal]`.
 * (Comments in parentheses, which Go also skips, are not read.)
 */
function isEmailAddress(text: string): boolean {
  const trimmed = text.trim();
  if (isAddressSpec(trimmed)) return true;
  const open = trimmed.lastIndexOf('<');
  if (open === -1 || !trimmed.endsWith('>')) return false;
  const name = trimmed.slice(0, open).trim();
  return PHRASE.test(name) && isAddressSpec(trimmed.slice(open + 1, -1));
}

function isAddressSpec(text: string): boolean {
  const at = text.lastIndexOf('@');
  if (at <= 0) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  const localValid = QUOTED_STRING.test(local) || isDotAtom(local);
  const domainValid = /^\[[^[\]\\]*\]$/.test(domain) || isDotAtom(domain);
  return localValid && domainValid;
}

function isDotAtom(text: string): boolean {
  return text.split('.').every((atom) => ATOM.test(atom));
}

/** Whether strings of `format` are checked: parsed, or of a format the API server checks. */
export function isCheckedFormat(format: unknown): format is string {
  return typeof format === 'string' && (isTypedFormat(format) || isKnownFormat(format));
}

/** A format this module checks, or `datetime` (`date-time` without its dash). */
function isKnownFormat(format: string): boolean {
  return format.replaceAll('-', '') === 'datetime' || formatCheck(format) !== undefined;
}

/**
 * Whether `text` is of `format` (true for formats the API server does not check) in Kubernetes
 * 1.`minor` (default the newest).
 */
export function isValidFormat(
  text: string,
  format: string,
  minor = Number.POSITIVE_INFINITY,
): boolean {
  switch (format.replaceAll('-', '')) {
    case 'duration':
      return parseDuration(text) !== undefined;
    case 'date':
      return parseDate(text) !== undefined;
    case 'datetime':
      return isDateTime(text);
    case 'byte':
      return decodeBase64(text) !== undefined;
    default:
      return formatCheck(format, minor)?.(text) ?? true;
  }
}

/** A string that does not parse as its schema's format: where (a path in the value) and which. */
export interface FormatProblem {
  readonly path: readonly (string | number)[];
  readonly format: string;
  readonly value: string | number;
  /** For a number out of its format's range ({@link numberFitsFormat}), the schema's type. */
  readonly rangeOf?: 'integer' | 'number';
}

/** The first release that checks a number against its format ({@link numberFitsFormat}). */
const NUMBER_FORMATS_FROM = 36;
const INT32 = 2 ** 31;

/**
 * The range a node's numeric format bounds its values to: `int32` of an `integer`, `float` of a
 * `number` (float32), the formats whose values Kubernetes 1.36's kube-openapi checks
 * (`IsValueValidAgainstRange`; `int64` and `double` hold any value a manifest can write). The
 * type named alone, as kube-openapi reads it.
 */
function rangedType(node: Record<string, unknown>): 'integer' | 'number' | undefined {
  if (node.type === 'integer' && node.format === 'int32') return 'integer';
  if (node.type === 'number' && node.format === 'float') return 'number';
  return undefined;
}

/**
 * Whether a number fits its schema node's numeric format in Kubernetes 1.`minor`: from 1.36,
 * which stopped stripping the formats of numbers (apiextensions-apiserver's
 * `StripUnsupportedFormatsPostProcessorForVersion`) and whose kube-openapi checks them, an `int32`
 * within 32 bits and a `float` that float32 holds (`3.5e38` is past it); before, any number.
 */
function numberFitsFormat(value: number, type: 'integer' | 'number', minor: number): boolean {
  if (minor < NUMBER_FORMATS_FROM) return true;
  if (type === 'integer') return value >= -INT32 && value < INT32;
  return Number.isFinite(Math.fround(value));
}

/**
 * Whether a schema has a checked format anywhere under `properties`, `additionalProperties` or
 * `items` (the structural keywords a CRD's values follow), so that one without costs nothing.
 */
export function hasCheckedFormats(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return false;
  const node = schema as Record<string, unknown>;
  if (isCheckedFormat(node.format) || rangedType(node) !== undefined) return true;
  const properties = node.properties;
  if (typeof properties === 'object' && properties !== null) {
    if (Object.values(properties).some(hasCheckedFormats)) return true;
  }
  return hasCheckedFormats(node.additionalProperties) || hasCheckedFormats(node.items);
}

/**
 * The strings of `value` that do not parse as their schema's format in Kubernetes 1.`minor`
 * (default the newest), and the numbers past their format's range, in document order.
 */
export function formatProblems(
  value: unknown,
  schema: unknown,
  minor = Number.POSITIVE_INFINITY,
): FormatProblem[] {
  const problems: FormatProblem[] = [];
  const visit = (item: unknown, node: unknown, path: (string | number)[]): void => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
    const { format, properties, additionalProperties, items } = node as Record<string, unknown>;
    if (typeof item === 'string') {
      if (isCheckedFormat(format) && !isValidFormat(item, format, minor)) {
        problems.push({ path, format, value: item });
      }
    } else if (typeof item === 'number') {
      const rangeOf = rangedType(node as Record<string, unknown>);
      if (rangeOf !== undefined && !numberFitsFormat(item, rangeOf, minor)) {
        problems.push({ path, format: String(format), value: item, rangeOf });
      }
    } else if (Array.isArray(item)) {
      item.forEach((element: unknown, i) => visit(element, items, [...path, i]));
    } else if (typeof item === 'object' && item !== null) {
      const declared =
        typeof properties === 'object' && properties !== null
          ? (properties as Record<string, unknown>)
          : {};
      for (const [key, child] of Object.entries(item)) {
        const childSchema = Object.prototype.hasOwnProperty.call(declared, key)
          ? declared[key]
          : additionalProperties;
        visit(child, childSchema, [...path, key]);
      }
    }
  };
  visit(value, schema, []);
  return problems;
}
