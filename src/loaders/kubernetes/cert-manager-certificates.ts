/**
 * A cert-manager `Certificate` (`cert-manager.io`), checked as cert-manager's webhook checks it
 * when it is written (`ValidateCertificateSpec` of its `internal/apis/certmanager/validation`),
 * beyond its CRD's schema, in its words:
 *
 * - `secretName` is a DNS subdomain; `issuerRef` names its issuer, an `Issuer` or a
 *   `ClusterIssuer` when it is cert-manager's own;
 * - it names what it certifies: a `commonName` (at most 64 characters), `dnsNames`, `uris`,
 *   `emailAddresses` (bare addresses), `ipAddresses` (addresses, not blocks) or `otherNames`;
 * - a private key's size fits its algorithm (RSA 2048 to 8192, ECDSA 256, 384 or 521), and the
 *   signature algorithm is one of that key's;
 * - `duration` and `renewBefore` are Go durations (`2160h`, not `90d`); the duration is at
 *   least an hour (90 days unless given); `renewBefore` at least 5 minutes and less than the
 *   duration, and not beside `renewBeforePercentage`, which must leave as much;
 * - `revisionHistoryLimit` is at least 1; the secret template's labels and annotations are
 *   Kubernetes' (and no `cert-manager.io/` annotation); each additional output format once;
 * - a JKS or PKCS#12 keystore has one password: a literal one, not empty, or a secret's.
 *
 * What cert-manager's feature gates decide (`literalSubject`, `otherNames`, `nameConstraints`)
 * is not checked, but a literal subject stands for a common name.
 */

import { isPlainObject, stringOrEmpty as text } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { jsonPointer } from '../json-pointer.js';
import { goDurationString, parseGoDuration } from '../string-formats.js';
import {
  duplicateValue,
  forbiddenValue,
  goFieldPath,
  invalidValue,
  requiredValue,
  unsupportedValue,
} from './go-field-error.js';
import { dns1123SubdomainProblems } from './label-syntax.js';
import { isSloppyIpAddress } from './ip-address.js';
import { templateMetadataProblems } from './object-meta.js';

type Path = readonly (string | number)[];

const GROUP = 'cert-manager.io';

/** Whether a document of `group`/`kind` is a cert-manager `Certificate`. */
export function isCertificate(group: string, kind: string): boolean {
  return group === GROUP && kind === 'Certificate';
}

const NANOS_PER_MINUTE = 60_000_000_000n;
/** `MinimumCertificateDuration`, `DefaultCertificateDuration`, `MinimumRenewBefore`. */
const MINIMUM_DURATION = 60n * NANOS_PER_MINUTE;
const DEFAULT_DURATION = 90n * 24n * 60n * NANOS_PER_MINUTE;
const MINIMUM_RENEW_BEFORE = 5n * NANOS_PER_MINUTE;

/** The signature algorithms of each private key algorithm (`keyAlgToAllowedSigAlgs`). */
const SIGNATURE_ALGORITHMS: Readonly<Record<string, readonly string[]>> = {
  RSA: ['SHA256WithRSA', 'SHA384WithRSA', 'SHA512WithRSA'],
  ECDSA: ['ECDSAWithSHA256', 'ECDSAWithSHA384', 'ECDSAWithSHA512'],
  Ed25519: ['PureEd25519'],
};

/** The problems of a Certificate (see above). */
export function certificateProblems(document: Record<string, unknown>): SchemaProblem[] {
  const spec = document.spec;
  if (!isPlainObject(spec)) return [];
  const problems: SchemaProblem[] = [];
  const add = (path: Path, message: string, part: 'key' | 'value' = 'value'): void => {
    problems.push({ path: jsonPointer(['spec', ...path]), part, keyword: 'cert-manager', message });
  };
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

  const secretName = text(spec.secretName);
  for (const message of secretName === '' ? [] : dns1123SubdomainProblems(secretName)) {
    add(['secretName'], invalidValue(secretName, message));
  }
  issuerRefProblems(spec.issuerRef, add);

  const commonName = text(spec.commonName);
  const identities = ['dnsNames', 'uris', 'emailAddresses', 'ipAddresses', 'otherNames'];
  if (
    commonName === '' &&
    text(spec.literalSubject) === '' &&
    identities.every((field) => list(spec[field]).length === 0)
  ) {
    add(
      [],
      invalidValue(
        '',
        'at least one of commonName (from the commonName field or from a literalSubject), dnsNames, emailSANs, ipAddresses, otherNames, or uriSANs must be set',
      ),
    );
  }
  if (commonName.length > 64) {
    add(['commonName'], 'Too long: may not be more than 64 bytes');
  }
  list(spec.ipAddresses).forEach((address, i) => {
    if (typeof address === 'string' && !isIpAddress(address)) {
      add(['ipAddresses', i], invalidValue(address, 'invalid IP address'));
    }
  });
  list(spec.emailAddresses).forEach((address, i) => {
    const problem = typeof address === 'string' ? emailAddressProblem(address) : undefined;
    if (problem !== undefined) add(['emailAddresses', i], invalidValue(address, problem));
  });

  const privateKey = isPlainObject(spec.privateKey) ? spec.privateKey : {};
  const algorithm = text(privateKey.algorithm) || 'RSA';
  const size = typeof privateKey.size === 'number' ? privateKey.size : 0;
  if (algorithm === 'RSA' && size > 0 && (size < 2048 || size > 8192)) {
    add(
      ['privateKey', 'size'],
      invalidValue(size, 'must be between 2048 and 8192 for rsa keyAlgorithm'),
    );
  } else if (algorithm === 'ECDSA' && size > 0 && ![256, 384, 521].includes(size)) {
    add(['privateKey', 'size'], unsupportedValue(size, ['256', '384', '521']));
  }
  const signature = text(spec.signatureAlgorithm);
  const allowed = SIGNATURE_ALGORITHMS[algorithm];
  if (signature !== '' && allowed !== undefined && !allowed.includes(signature)) {
    add(
      ['signatureAlgorithm'],
      invalidValue(
        signature,
        `for key algorithm ${algorithm} the allowed signature algorithms are [${allowed.join(' ')}]`,
      ),
    );
  }

  durationProblems(spec, add);

  if (typeof spec.revisionHistoryLimit === 'number' && spec.revisionHistoryLimit < 1) {
    add(
      ['revisionHistoryLimit'],
      invalidValue(spec.revisionHistoryLimit, 'must not be less than 1'),
    );
  }
  const template = spec.secretTemplate;
  if (isPlainObject(template)) {
    problems.push(...templateMetadataProblems(template, ['spec', 'secretTemplate']));
    const annotations = isPlainObject(template.annotations) ? template.annotations : {};
    for (const key of Object.keys(annotations)) {
      if (key.startsWith('cert-manager.io/') && key !== 'cert-manager.io/allow-direct-injection') {
        add(
          ['secretTemplate', 'annotations', key],
          invalidValue(key, 'cert-manager.io/* annotations are not allowed'),
          'key',
        );
      }
    }
  }
  const formats = new Set<string>();
  list(spec.additionalOutputFormats).forEach((format, i) => {
    const type = isPlainObject(format) ? text(format.type) : '';
    if (type === '') return;
    if (formats.has(type)) add(['additionalOutputFormats', i, 'type'], duplicateValue(type));
    formats.add(type);
  });
  keystoreProblems(spec.keystores, add);
  return problems;
}

/** `issuerRef`: a name; a kind cert-manager has when the group is its own (or none). */
function issuerRefProblems(
  issuerRef: unknown,
  add: (path: Path, message: string, part?: 'key' | 'value') => void,
): void {
  if (!isPlainObject(issuerRef)) return;
  if (issuerRef.name === '') add(['issuerRef', 'name'], requiredValue('must be specified'));
  const group = typeof issuerRef.group === 'string' ? issuerRef.group : '';
  const kind = typeof issuerRef.kind === 'string' ? issuerRef.kind : '';
  if ((group === '' || group === GROUP) && !['', 'Issuer', 'ClusterIssuer'].includes(kind)) {
    add(
      ['issuerRef', 'kind'],
      invalidValue(
        kind,
        `must be one of Issuer or ClusterIssuer${group === '' ? ` (did you forget to set ${goFieldPath(['spec', 'issuerRef', 'group'])}? an external issuer's kind is of its own group)` : ''}`,
      ),
    );
  }
}

/** `ValidateDuration`: the duration, `renewBefore` and `renewBeforePercentage` against each other. */
/** A duration field cert-manager cannot read (Go's `time.ParseDuration`), said with what it reads. */
export function invalidGoDuration(value: string): string {
  const days = /\d\s*d/.test(value) ? '; no days: 90 days is 2160h' : '';
  return invalidValue(
    value,
    `time: invalid duration ${JSON.stringify(value)}: cert-manager reads Go durations (300ms, 1.5h, 2h45m${days})`,
  );
}

function durationProblems(
  spec: Record<string, unknown>,
  add: (path: Path, message: string, part?: 'key' | 'value') => void,
): void {
  const read = (field: 'duration' | 'renewBefore'): bigint | undefined => {
    const value = spec[field];
    if (typeof value !== 'string') return undefined;
    const nanos = parseGoDuration(value);
    if (nanos === undefined) {
      add([field], invalidGoDuration(value));
    }
    return nanos;
  };
  const given = read('duration');
  const renewBefore = read('renewBefore');
  const percentage =
    typeof spec.renewBeforePercentage === 'number' ? spec.renewBeforePercentage : undefined;
  if (given === undefined && renewBefore === undefined) return;
  const duration = given ?? DEFAULT_DURATION;
  const shown = goDurationString;
  if (duration < MINIMUM_DURATION) {
    add(
      ['duration'],
      invalidValue(
        shown(duration),
        `certificate duration must be greater than ${shown(MINIMUM_DURATION)}`,
      ),
    );
  }
  if (renewBefore !== undefined && percentage !== undefined) {
    const both =
      'renewBefore and renewBeforePercentage are mutually exclusive and cannot both be set';
    add(['renewBefore'], invalidValue(shown(renewBefore), both));
    add(['renewBeforePercentage'], invalidValue(percentage, both));
  }
  if (renewBefore !== undefined && renewBefore < MINIMUM_RENEW_BEFORE) {
    add(
      ['renewBefore'],
      invalidValue(
        shown(renewBefore),
        `certificate renewBefore must be greater than ${shown(MINIMUM_RENEW_BEFORE)}`,
      ),
    );
  }
  if (renewBefore !== undefined && renewBefore >= duration) {
    add(
      ['renewBefore'],
      invalidValue(
        shown(renewBefore),
        `certificate duration ${shown(duration)} must be greater than renewBefore ${shown(renewBefore)}${given === undefined ? ' (the duration is 90 days unless given)' : ''}`,
      ),
    );
  }
  if (percentage !== undefined) {
    const before = (duration * BigInt(Math.trunc((100 - percentage) * 1000))) / 100_000n;
    if (before < MINIMUM_RENEW_BEFORE) {
      add(
        ['renewBeforePercentage'],
        invalidValue(
          percentage,
          `certificate renewBeforePercentage must result in a renewBefore greater than ${shown(MINIMUM_RENEW_BEFORE)}`,
        ),
      );
    }
    if (before >= duration) {
      add(
        ['renewBeforePercentage'],
        invalidValue(
          percentage,
          'certificate renewBeforePercentage must result in a renewBefore less than duration',
        ),
      );
    }
  }
}

/** `validateKeystores`: one password for each keystore, a literal one not empty. */
function keystoreProblems(
  keystores: unknown,
  add: (path: Path, message: string, part?: 'key' | 'value') => void,
): void {
  if (!isPlainObject(keystores)) return;
  for (const [field, name] of [
    ['jks', 'JKS'],
    ['pkcs12', 'PKCS#12'],
  ] as const) {
    const keystore = keystores[field];
    if (!isPlainObject(keystore)) continue;
    const password = keystore.password;
    const secret = isPlainObject(keystore.passwordSecretRef) ? keystore.passwordSecretRef.name : '';
    const bySecret = typeof secret === 'string' && secret !== '';
    if (password != null && bySecret) {
      add(
        ['keystores', field],
        forbiddenValue(
          `exactly one of passwordSecretRef and password must be provided for ${name} keystores; cannot set both`,
        ),
        'key',
      );
    }
    if (password == null && !bySecret) {
      add(
        ['keystores', field],
        forbiddenValue(
          `must set exactly one of passwordSecretRef and password must for ${name} keystores`,
        ),
        'key',
      );
    }
    if (password === '') {
      add(
        ['keystores', field, 'password'],
        forbiddenValue(`literal password cannot be empty if set on ${name} keystores`),
      );
    }
  }
}

/** Go's `net.ParseIP`: an IPv4 address without leading zeros, or an IPv6 one (no zone, no prefix). */
function isIpAddress(value: string): boolean {
  return isSloppyIpAddress(value) && (value.includes(':') || !/(^|\.)0\d/.test(value));
}

/**
 * Whether a value ends (spaces aside) in an address in angle brackets, `<...@...>` with no other
 * bracket inside: the last `<` before the final `>`, found once (as the regular expression
 * `<[^<>]*@[^<>]*>\s*$`, a `<` then a long run of `@` took time quadratic in its length).
 */
function endsInAngleAddress(value: string): boolean {
  const text = value.trimEnd();
  if (!text.endsWith('>')) return false;
  const open = text.lastIndexOf('<', text.length - 2);
  if (open === -1) return false;
  const inside = text.slice(open + 1, -1);
  return !inside.includes('>') && inside.includes('@');
}

/**
 * Why an email address is not one Go's `mail.ParseAddress` reads as the value itself, or
 * `undefined`: a bare `local@domain`, no display name, no angle brackets, no spaces.
 */
function emailAddressProblem(value: string): string | undefined {
  if (/^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+$/.test(value)) return undefined;
  if (endsInAngleAddress(value)) {
    return 'invalid email address: make sure the supplied value only contains the email address itself';
  }
  if (!value.includes('@')) return "invalid email address: mail: missing '@' or angle-addr";
  return 'invalid email address: write the address alone, local@domain (no scheme, name, spaces or brackets)';
}
