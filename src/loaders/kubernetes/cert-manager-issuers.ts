/**
 * A cert-manager `Issuer` or `ClusterIssuer` (`cert-manager.io`), checked as cert-manager's
 * webhook checks it when it is written (`ValidateIssuerConfig` of its
 * `internal/apis/certmanager/validation`), beyond its CRD's schema, in its words (a field the
 * CRD requires is reported here when given empty, its absence by the schema):
 *
 * - it is one kind of issuer: `acme`, `ca`, `selfSigned`, `vault` or `venafi`;
 * - an ACME issuer names its server and the secret of its account key, trusts a CA bundle or
 *   skips TLS verification (not both), gives an external account binding's key ID; each solver
 *   is one of `http01` (by one of an Ingress or a Gateway route, one of `class`,
 *   `ingressClassName` or `name`, a service type of `ClusterIP` or `NodePort`) and `dns01`
 *   (`cert-manager-dns01.ts`), and waits no negative time instead of its self check; an external
 *   account binding's key names its secret's key;
 * - a CA issuer names its secret, and leaves no OCSP server or issuing certificate URL empty;
 * - an ACME or Vault issuer's CA bundle holds a certificate that parses;
 * - a Vault issuer names its server and path (no `..` segment), one CA bundle source, a client
 *   certificate and key together, and one way to authenticate, with what it needs;
 * - a Venafi issuer names its zone and is one of TPP (with its URL and one CA bundle source),
 *   Cloud and NGTS (with its TSG ID and credentials).
 */

import {
  isPlainObject,
  objectOrUndefined as object,
  stringOrEmpty as text,
} from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { jsonPointer } from '../json-pointer.js';
import { forbiddenValue, invalidValue, requiredValue } from './go-field-error.js';
import { dns1123SubdomainProblems } from './label-syntax.js';
import { dns01Problems, secretKeySelectorProblems } from './cert-manager-dns01.js';
import { goDurationString, parseGoDuration } from '../string-formats.js';
import { invalidGoDuration } from './cert-manager-certificates.js';
import { decodeGoBytes, holdsValidCertificate } from './pem-certificates.js';

type Path = readonly (string | number)[];
type Add = (path: Path, message: string, part?: 'key' | 'value') => void;

const GROUP = 'cert-manager.io';

/** Whether a document of `group`/`kind` is a cert-manager `Issuer` or `ClusterIssuer`. */
export function isIssuer(group: string, kind: string): boolean {
  return group === GROUP && (kind === 'Issuer' || kind === 'ClusterIssuer');
}

const ISSUER_TYPES = ['acme', 'ca', 'selfSigned', 'vault', 'venafi'];

/** The problems of an Issuer or ClusterIssuer (see above). */
export function issuerProblems(document: Record<string, unknown>): SchemaProblem[] {
  const spec = document.spec;
  if (!isPlainObject(spec)) return [];
  const problems: SchemaProblem[] = [];
  const add: Add = (path, message, part = 'value') => {
    problems.push({ path: jsonPointer(['spec', ...path]), part, keyword: 'cert-manager', message });
  };
  const types = ISSUER_TYPES.filter((type) => spec[type] != null);
  if (types.length === 0) {
    add([], requiredValue('at least one issuer must be configured'), 'key');
  }
  for (const type of types.slice(1)) {
    add([type], forbiddenValue('may not specify more than one issuer type'), 'key');
  }
  const first = types[0];
  const config = first === undefined ? undefined : object(spec[first]);
  if (config === undefined) return problems;
  if (first === 'acme') acmeProblems(config, add);
  if (first === 'ca') caProblems(config, add);
  if (first === 'vault') vaultProblems(config, add);
  if (first === 'venafi') venafiProblems(config, add);
  return problems;
}

/** `ValidateACMEIssuerConfig`. */
function acmeProblems(acme: Record<string, unknown>, add: Add): void {
  if (text(acme.caBundle) !== '' && acme.skipTLSVerify === true) {
    const both = 'caBundle and skipTLSVerify are mutually exclusive and cannot both be set';
    add(['acme', 'caBundle'], invalidValue('', both));
    add(['acme', 'skipTLSVerify'], invalidValue(true, both));
  }
  caBundleProblems(acme.caBundle, ['acme', 'caBundle'], '', add);
  if (object(acme.privateKeySecretRef)?.name === '') {
    add(
      ['acme', 'privateKeySecretRef', 'name'],
      requiredValue('private key secret name is a required field'),
      'key',
    );
  }
  if (acme.server === '') {
    add(['acme', 'server'], requiredValue('acme server URL is a required field'), 'key');
  }
  const binding = object(acme.externalAccountBinding);
  if (binding !== undefined) {
    const here = ['acme', 'externalAccountBinding'];
    if (binding.keyID === '') {
      add(
        [...here, 'keyID'],
        requiredValue('the keyID field is required when using externalAccountBinding'),
        'key',
      );
    }
    secretKeySelectorProblems(binding.keySecretRef, [...here, 'keySecretRef'], add);
  }
  const solvers = Array.isArray(acme.solvers) ? acme.solvers : [];
  solvers.forEach((solver: unknown, i) => {
    if (isPlainObject(solver)) solverProblems(solver, ['acme', 'solvers', i], add);
  });
}

/** `ValidateACMEIssuerChallengeSolverConfig`: one solver type, each with what it needs. */
function solverProblems(solver: Record<string, unknown>, at: Path, add: Add): void {
  const http01 = object(solver.http01);
  const dns01 = object(solver.dns01);
  if (http01 === undefined && dns01 === undefined) {
    add(at, requiredValue('no solver type configured'), 'key');
  }
  if (http01 !== undefined && dns01 !== undefined) {
    add(at, forbiddenValue('may not specify more than one solver type in a single solver'), 'key');
  }
  if (http01 !== undefined) {
    const here = [...at, 'http01'];
    const kinds = ['ingress', 'gatewayHTTPRoute'].filter((kind) => http01[kind] != null);
    if (kinds.length === 0) add(here, requiredValue('no HTTP01 solver type configured'), 'key');
    if (kinds.length > 1) {
      add(here, requiredValue('only 1 HTTP01 solver type may be configured'), 'key');
    }
    const ingress = object(http01.ingress);
    if (ingress !== undefined) ingressProblems(ingress, [...here, 'ingress'], add);
    const route = object(http01.gatewayHTTPRoute);
    serviceTypeProblems(route?.serviceType, [...here, 'gatewayHTTPRoute', 'serviceType'], add);
  }
  if (dns01 !== undefined && http01 === undefined) dns01Problems(dns01, [...at, 'dns01'], add);
  const wait = solver.waitInsteadOfSelfCheck;
  if (typeof wait === 'string') {
    const nanos = parseGoDuration(wait);
    const here = [...at, 'waitInsteadOfSelfCheck'];
    if (nanos === undefined) add(here, invalidGoDuration(wait));
    else if (nanos < 0n) {
      add(
        here,
        invalidValue(goDurationString(nanos), 'waitInsteadOfSelfCheck must not be negative'),
      );
    }
  }
}

/** An HTTP01 Ingress solver: one way to name its Ingress, and a service type it has. */
function ingressProblems(ingress: Record<string, unknown>, at: Path, add: Add): void {
  const named = [
    ingress.class != null,
    ingress.ingressClassName != null,
    text(ingress.name) !== '',
  ];
  if (named.filter(Boolean).length > 1) {
    add(
      at,
      forbiddenValue("only one of 'ingressClassName', 'name' or 'class' should be specified"),
      'key',
    );
  }
  if (typeof ingress.ingressClassName === 'string') {
    const problems = dns1123SubdomainProblems(ingress.ingressClassName);
    if (problems.length > 0) {
      add(
        [...at, 'ingressClassName'],
        invalidValue(
          ingress.ingressClassName,
          `must be a valid IngressClass name: ${problems.join(', ')}`,
        ),
      );
    }
  }
  serviceTypeProblems(ingress.serviceType, [...at, 'serviceType'], add);
}

/** A solver's service type: none, `ClusterIP` or `NodePort`. */
function serviceTypeProblems(serviceType: unknown, at: Path, add: Add): void {
  if (typeof serviceType !== 'string' || ['', 'ClusterIP', 'NodePort'].includes(serviceType))
    return;
  add(at, invalidValue(serviceType, 'must be empty, "ClusterIP" or "NodePort"'));
}

/** `ValidateCAIssuerConfig`: its secret, and no empty OCSP server or issuing certificate URL. */
function caProblems(ca: Record<string, unknown>, add: Add): void {
  if (ca.secretName === '') add(['ca', 'secretName'], requiredValue(), 'key');
  const urls = [
    ['ocspServers', 'must be a valid URL, e.g., http://ocsp.int-x3.letsencrypt.org'],
    ['issuingCertificateURLs', 'must be a valid URL'],
  ] as const;
  for (const [field, detail] of urls) {
    const given: unknown = ca[field];
    if (!Array.isArray(given)) continue;
    given.forEach((url: unknown, i) => {
      if (url === '') add(['ca', field, i], invalidValue('', detail));
    });
  }
}

/** `ValidateVenafiIssuerConfig`: a zone, and one of TPP, Cloud and NGTS with what it needs. */
function venafiProblems(venafi: Record<string, unknown>, add: Add): void {
  if (venafi.zone === '') add(['venafi', 'zone'], requiredValue(), 'key');
  const kinds = ['tpp', 'cloud', 'ngts'].filter((kind) => venafi[kind] != null);
  if (kinds.length !== 1) {
    const one = 'please supply one of: tpp, cloud, ngts';
    add(['venafi'], kinds.length === 0 ? requiredValue(one) : forbiddenValue(one), 'key');
  }
  const tpp = object(venafi.tpp);
  if (tpp !== undefined) {
    if (tpp.url === '') add(['venafi', 'tpp', 'url'], requiredValue(), 'key');
    if (text(tpp.caBundle) !== '' && tpp.caBundleSecretRef != null) {
      add(
        ['venafi', 'tpp'],
        forbiddenValue(
          'may not specify more than one of caBundle/caBundleSecretRef as TPP CA Bundle',
        ),
        'key',
      );
    }
  }
  const ngts = object(venafi.ngts);
  if (ngts !== undefined) {
    if (ngts.tsgID === '') add(['venafi', 'ngts', 'tsgID'], requiredValue(), 'key');
    if (object(ngts.credentialsRef)?.name === '') {
      add(['venafi', 'ngts', 'credentialsRef', 'name'], requiredValue(), 'key');
    }
  }
}

/**
 * `validateCABundleNotEmpty`: a CA bundle (a `[]byte`: base64 of PEM) holds a certificate that
 * parses. Go's message says the value as `value` (`<snip>` for Vault's: not the whole bundle).
 */
function caBundleProblems(bundle: unknown, at: Path, value: string, add: Add): void {
  const pem = text(bundle) === '' ? undefined : decodeGoBytes(text(bundle));
  if (pem !== undefined && !holdsValidCertificate(pem)) {
    add(at, invalidValue(value, "cert bundle didn't contain any valid certificates"));
  }
}

/** A Vault path with a `..` segment, reported at `at` (`containsDotDotSegment`). */
function climbingPathProblems(path: unknown, at: Path, add: Add): void {
  if (text(path).split('/').includes('..')) {
    add(at, invalidValue(path, "must not contain '..' path segments"));
  }
}

/** `ValidateVaultIssuerConfig` and `ValidateVaultIssuerAuth`. */
function vaultProblems(vault: Record<string, unknown>, add: Add): void {
  const at = ['vault'];
  if (vault.server === '') add([...at, 'server'], requiredValue(), 'key');
  if (vault.path === '') add([...at, 'path'], requiredValue(), 'key');
  else climbingPathProblems(vault.path, [...at, 'path'], add);
  caBundleProblems(vault.caBundle, [...at, 'caBundle'], '<snip>', add);
  if (text(vault.caBundle) !== '' && vault.caBundleSecretRef != null) {
    add(
      [...at, 'caBundle'],
      invalidValue('<snip>', 'specified caBundle and caBundleSecretRef cannot be used together'),
    );
    add(
      [...at, 'caBundleSecretRef'],
      invalidValue(
        text(object(vault.caBundleSecretRef)?.name),
        'specified caBundleSecretRef and caBundle cannot be used together',
      ),
    );
  }
  if ((vault.clientCertSecretRef != null) !== (vault.clientKeySecretRef != null)) {
    const missing =
      vault.clientCertSecretRef == null ? 'clientCertSecretRef' : 'clientKeySecretRef';
    const other = missing === 'clientCertSecretRef' ? 'clientKeySecretRef' : 'clientCertSecretRef';
    add([...at, missing], `${missing} must be provided when defining the ${other}`, 'key');
  }
  const auth = object(vault.auth) ?? {};
  const here = [...at, 'auth'];
  const ways = ['tokenSecretRef', 'appRole', 'clientCertificate', 'kubernetes', 'aws'].filter(
    (way) => auth[way] != null,
  );
  if (ways.length === 0) {
    add(
      here,
      requiredValue(
        'please supply one of: appRole, kubernetes, tokenSecretRef, clientCertificate, aws',
      ),
      'key',
    );
  }
  const appRole = object(auth.appRole);
  if (appRole !== undefined) {
    if (appRole.roleId === '') add([...here, 'appRole', 'roleId'], requiredValue(), 'key');
    if (object(appRole.secretRef)?.name === '') {
      add([...here, 'appRole', 'secretRef', 'name'], requiredValue(), 'key');
    }
    climbingPathProblems(appRole.path, [...here, 'appRole', 'path'], add);
  }
  const kubernetes = object(auth.kubernetes);
  if (kubernetes !== undefined) {
    if (kubernetes.role === '') add([...here, 'kubernetes', 'role'], requiredValue(), 'key');
    climbingPathProblems(kubernetes.path, [...here, 'kubernetes', 'path'], add);
    const bySecret = text(object(kubernetes.secretRef)?.name) !== '';
    const account = object(kubernetes.serviceAccountRef);
    if (account !== undefined && text(account.name) === '') {
      add([...here, 'kubernetes', 'serviceAccountRef', 'name'], requiredValue(), 'key');
    }
    const given = [bySecret, account !== undefined].filter(Boolean).length;
    if (given === 0) {
      add(
        [...here, 'kubernetes'],
        requiredValue('please supply one of: secretRef, serviceAccountRef'),
        'key',
      );
    } else if (given > 1) {
      add(
        [...here, 'kubernetes'],
        forbiddenValue('please supply one of: secretRef, serviceAccountRef'),
        'key',
      );
    }
  }
  const certificate = object(auth.clientCertificate);
  climbingPathProblems(certificate?.path, [...here, 'clientCertificate', 'path'], add);
  const aws = object(auth.aws);
  if (aws !== undefined) {
    if (aws.role === '') add([...here, 'aws', 'role'], requiredValue(), 'key');
    climbingPathProblems(aws.mountPath, [...here, 'aws', 'mountPath'], add);
    const account = object(aws.serviceAccountRef);
    if (account !== undefined && text(account.name) === '') {
      add([...here, 'aws', 'serviceAccountRef', 'name'], requiredValue(), 'key');
    }
    if (account !== undefined && text(aws.iamRoleArn) === '') {
      add(
        [...here, 'aws', 'iamRoleArn'],
        requiredValue('iamRoleArn is required when using serviceAccountRef for IRSA'),
        'key',
      );
    }
  }
}
