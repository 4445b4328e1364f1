/**
 * The warning the API server returns for each request at a CRD version marked `deprecated: true`
 * (apiextensions-apiserver `customresource_handler.go`): the version's `deprecationWarning`, or
 * `<group>/<version> <Kind> is deprecated`, with `; use <group>/<version> <Kind>` naming the
 * highest served, not deprecated version that sorts after it (`defaultDeprecationWarning`, in
 * `version.CompareKubeAwareVersionStrings`' order: v2 > v1 > v1beta2 > v1beta1 > v1alpha1 > any
 * other name). The CRD's own check of a `deprecationWarning` (set only on a deprecated version,
 * 1 to 256 bytes of printable characters) is here too.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { CrdProblem } from './crd-conversion.js';
import { invalidValue } from './go-field-error.js';

/** The deprecation warning of version `name` of a CRD's `spec`; undefined when not deprecated. */
export function deprecationWarningOf(
  spec: Record<string, unknown>,
  name: string,
): string | undefined {
  const versions = (Array.isArray(spec.versions) ? (spec.versions as unknown[]) : []).filter(
    isPlainObject,
  );
  const version = versions.find((v) => v.name === name);
  if (version?.deprecated !== true) return undefined;
  if (typeof version.deprecationWarning === 'string') return version.deprecationWarning;
  const group = String(spec.group);
  const kind = String(isPlainObject(spec.names) ? spec.names.kind : '');
  const message = `${group}/${name} ${kind} is deprecated`;
  const newer = versions
    .filter(
      (v) =>
        v.served === true &&
        v.deprecated !== true &&
        typeof v.name === 'string' &&
        compareKubeAwareVersions(name, v.name) < 0,
    )
    .map((v) => v.name as string)
    .sort((a, b) => compareKubeAwareVersions(b, a));
  return newer[0] === undefined ? message : `${message}; use ${group}/${newer[0]} ${kind}`;
}

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/** `version.CompareKubeAwareVersionStrings`: negative when `a` sorts before `b`. */
export function compareKubeAwareVersions(a: string, b: string): number {
  if (a === b) return 0;
  const pa = parseKubeVersion(a);
  const pb = parseKubeVersion(b);
  if (pa === undefined && pb === undefined) return b < a ? -1 : b > a ? 1 : 0;
  if (pa === undefined) return -1;
  if (pb === undefined) return 1;
  return pa[1] - pb[1] || pa[0] - pb[0] || pa[2] - pb[2];
}

/** [major, type (alpha 0, beta 1, GA 2), minor], or undefined for a name of another form. */
function parseKubeVersion(version: string): [number, number, number] | undefined {
  const match = KUBE_VERSION.exec(version);
  if (match === null) return undefined;
  const major = Number(match[1]);
  const type = match[2] === 'alpha' ? 0 : match[2] === 'beta' ? 1 : 2;
  const minor = match[3] === undefined ? 0 : Number(match[3]);
  return [major, type, minor];
}

/** What the API server checks of each version's `deprecationWarning` (`validateDeprecationWarning`). */
export function deprecationWarningProblems(spec: Record<string, unknown>): CrdProblem[] {
  const problems: CrdProblem[] = [];
  const versions = Array.isArray(spec.versions) ? (spec.versions as unknown[]) : [];
  versions.forEach((version, i) => {
    if (!isPlainObject(version)) return;
    const warning = version.deprecationWarning;
    if (typeof warning !== 'string') return;
    const add = (detail: string): void => {
      problems.push({
        pointer: jsonPointer(['spec', 'versions', i, 'deprecationWarning']),
        message: invalidValue(warning, detail),
      });
    };
    if (version.deprecated !== true) {
      add('can only be set for deprecated versions');
      return;
    }
    if (Buffer.byteLength(warning, 'utf8') > 256) add('must be <= 256 characters long');
    if (warning === '') add('must not be an empty string');
    let index = 0;
    for (const char of warning) {
      if (!GO_PRINTABLE.test(char)) {
        add(
          `must only contain printable UTF-8 characters; non-printable character found at index ${index}`,
        );
        break;
      }
      index += Buffer.byteLength(char, 'utf8');
    }
  });
  return problems;
}

/** What Go's `unicode.IsPrint` takes: letters, marks, numbers, punctuation, symbols, ASCII space. */
const GO_PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
