/**
 * The Kubernetes `semver` library (Kubernetes 1.33, its version 1): `semver(s)` parses a
 * semantic version as `github.com/blang/semver/v4` does (strict `MAJOR.MINOR.PATCH`, optional
 * `-prerelease` and `+build`, no leading zeros), `semver(s, true)` first normalises it (drops a
 * leading `v` and leading zeros, fills a missing minor or patch with 0), `isSemver(s)` and
 * `isSemver(s, normalize)` say whether it would parse, and a version answers `major()`,
 * `minor()`, `patch()`, `compareTo(v)`, `isLessThan(v)` and `isGreaterThan(v)`. Versions are
 * ordered and `==` by semver precedence: build metadata is ignored.
 */

import { celFunc, celMethod, CelScalar, type CelFunc } from '@bufbuild/cel';
import { charge, sizeCost } from '../cost-budget.js';
import { expectTarget, OPAQUE_TYPE, ORDER_METHODS, OrderedValue } from '../opaque-value.js';

/** A prerelease identifier: a number or an alphanumeric string. */
type Identifier = bigint | string;

/** A parsed version; its canonical form leaves the build metadata out, as equality does. */
export class Semver extends OrderedValue {
  override get celTypeName(): string {
    return 'kubernetes.Semver';
  }

  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly prerelease: readonly Identifier[],
  ) {
    const pre = prerelease.length === 0 ? '' : `-${prerelease.join('.')}`;
    super('kubernetes.Semver', `${major}.${minor}.${patch}${pre}`);
  }

  override compare(other: Semver): number {
    for (const key of ['major', 'minor', 'patch'] as const) {
      if (this[key] !== other[key]) return this[key] < other[key] ? -1 : 1;
    }
    const [a, b] = [this.prerelease, other.prerelease];
    // A version without prerelease is above its prereleases.
    if (a.length === 0 || b.length === 0) return Math.sign(b.length) - Math.sign(a.length);
    for (let i = 0; i < a.length && i < b.length; i++) {
      const order = compareIdentifiers(a[i] as Identifier, b[i] as Identifier);
      if (order !== 0) return order;
    }
    return Math.sign(a.length - b.length);
  }
}

/** Numbers below strings; numbers by value, strings by code unit. */
function compareIdentifiers(a: Identifier, b: Identifier): number {
  if (typeof a !== typeof b) return typeof a === 'bigint' ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const DIGITS = /^[0-9]*$/;
const ALPHANUMERIC = /^[0-9A-Za-z-]*$/;

function hasLeadingZero(text: string): boolean {
  return text.length > 1 && text.startsWith('0');
}

function number(text: string, what: string): bigint {
  if (!DIGITS.test(text)) {
    throw new Error(`Invalid character(s) found in ${what} number ${JSON.stringify(text)}`);
  }
  if (hasLeadingZero(text)) {
    const name = `${what.charAt(0).toUpperCase()}${what.slice(1)}`;
    throw new Error(`${name} number must not contain leading zeroes ${JSON.stringify(text)}`);
  }
  const value = text === '' ? -1n : BigInt(text);
  if (value < 0n || value > 0xffffffffffffffffn) {
    throw new Error(`strconv.ParseUint: parsing ${JSON.stringify(text)}: invalid syntax`);
  }
  return value;
}

function prereleaseIdentifier(text: string): Identifier {
  if (text === '') throw new Error('Prerelease is empty');
  if (DIGITS.test(text)) {
    if (hasLeadingZero(text)) {
      throw new Error(
        `Numeric PreRelease version must not contain leading zeroes ${JSON.stringify(text)}`,
      );
    }
    return BigInt(text);
  }
  if (!ALPHANUMERIC.test(text)) {
    throw new Error(`Invalid character(s) found in prerelease ${JSON.stringify(text)}`);
  }
  return text;
}

/** Parses like blang/semver's `Parse`; throws its error. */
export function parseSemver(text: string): Semver {
  if (text === '') throw new Error('Version string empty');
  const parts = splitN(text, '.', 3);
  if (parts.length !== 3) throw new Error('No Major.Minor.Patch elements found');
  const major = number(parts[0] as string, 'major');
  const minor = number(parts[1] as string, 'minor');
  let patch = parts[2] as string;
  let build: string[] = [];
  let prerelease: string[] = [];
  const plus = patch.indexOf('+');
  if (plus !== -1) {
    build = patch.slice(plus + 1).split('.');
    patch = patch.slice(0, plus);
  }
  const dash = patch.indexOf('-');
  if (dash !== -1) {
    prerelease = patch.slice(dash + 1).split('.');
    patch = patch.slice(0, dash);
  }
  const patchNumber = number(patch, 'patch');
  const identifiers = prerelease.map(prereleaseIdentifier);
  for (const part of build) {
    if (part === '') throw new Error('Buildstr is empty');
    if (!ALPHANUMERIC.test(part)) {
      throw new Error(`Invalid character(s) found in build meta data ${JSON.stringify(part)}`);
    }
  }
  return new Semver(major, minor, patchNumber, identifiers);
}

/** Go's `strings.SplitN` for a positive count. */
function splitN(text: string, separator: string, count: number): string[] {
  const parts = text.split(separator);
  return parts.length <= count
    ? parts
    : [...parts.slice(0, count - 1), parts.slice(count - 1).join(separator)];
}

/** The library's normalisation before parsing: `v1.01` is `1.1.0`. */
function normalizeAndParse(text: string): Semver {
  const parts = splitN(text.startsWith('v') ? text.slice(1) : text, '.', 3).map((part) => {
    if (part.length <= 1) return part;
    const trimmed = part.replace(/^0+/, '');
    return /^[0-9]/.test(trimmed) ? trimmed : `0${trimmed}`;
  });
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1] as string)) {
      throw new Error('short version cannot contain PreRelease/Build meta data');
    }
    while (parts.length < 3) parts.push('0');
  }
  return parseSemver(parts.join('.'));
}

function toSemver(text: string, normalize: boolean): Semver {
  charge(sizeCost(text.length));
  return normalize ? normalizeAndParse(text) : parseSemver(text);
}

function isSemver(text: string, normalize: boolean): boolean {
  try {
    toSemver(text, normalize);
    return true;
  } catch {
    return false;
  }
}

const PARTS = ['major', 'minor', 'patch'] as const;

export const semverLibrary: readonly CelFunc[] = [
  celFunc('semver', [CelScalar.STRING], OPAQUE_TYPE, (text) => toSemver(text, false)),
  celFunc('semver', [CelScalar.STRING, CelScalar.BOOL], OPAQUE_TYPE, toSemver),
  celFunc('isSemver', [CelScalar.STRING], CelScalar.BOOL, (text) => isSemver(text, false)),
  celFunc('isSemver', [CelScalar.STRING, CelScalar.BOOL], CelScalar.BOOL, isSemver),
  ...PARTS.map((part) =>
    celMethod(part, OPAQUE_TYPE, [], CelScalar.INT, function () {
      return expectTarget(this, Semver, part)[part];
    }),
  ),
  ...ORDER_METHODS,
];
