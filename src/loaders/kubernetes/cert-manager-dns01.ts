/**
 * An ACME issuer's `dns01` solver (cert-manager), checked as cert-manager's webhook checks it
 * (`ValidateACMEChallengeSolverDNS01` of its `internal/apis/certmanager/validation`), beyond the
 * CRD's schema (which already knows the enums and the fields that must be present):
 *
 * - each of its `nameservers` is `host:port` or `https://host`;
 * - it has one provider, with what that provider needs: every secret it names with both a name
 *   and a key, and its own required values given non-empty (an Akamai service consumer domain,
 *   an Azure subscription and resource group with its client credentials all or none and no
 *   managed identity beside them, a Cloud DNS project, one Cloudflare credential with an email
 *   beside an API key, one Route53 access key ID, an acme-dns host, an RFC 2136 nameserver, TSIG
 *   algorithm and key name, a webhook's solver name).
 *
 * As in cert-manager, `akamai` and `acmeDNS` are counted as providers without refusing another
 * beside them, and a provider refused as a second is not checked further.
 */

import { objectOrUndefined as object, stringOrEmpty as text } from '../manifest-document.js';
import { forbiddenValue, invalidValue, requiredValue, unsupportedValue } from './go-field-error.js';

type Path = readonly (string | number)[];
type Add = (path: Path, message: string, part?: 'key' | 'value') => void;

/** The TSIG algorithms cert-manager's RFC 2136 provider signs with (upper case). */
const TSIG_ALGORITHMS = ['HMACMD5', 'HMACSHA1', 'HMACSHA256', 'HMACSHA512'];

const MORE_THAN_ONE = 'may not specify more than one provider type';

/** The problems of the `dns01` solver at `at`. */
export function dns01Problems(dns01: Record<string, unknown>, at: Path, add: Add): void {
  const nameservers = Array.isArray(dns01.nameservers) ? dns01.nameservers : [];
  nameservers.forEach((nameserver: unknown, i) => {
    if (typeof nameserver !== 'string') return;
    const problem = dns01NameserverProblem(nameserver);
    if (problem !== undefined) add([...at, 'nameservers', i], invalidValue(nameserver, problem));
  });
  let providers = 0;
  /** Counts a provider; false when another came first and this one is refused. */
  const single = (name: string): boolean => {
    if (providers > 0) {
      add([...at, name], forbiddenValue(MORE_THAN_ONE), 'key');
      return false;
    }
    providers++;
    return true;
  };
  const akamai = object(dns01.akamai);
  if (akamai !== undefined) {
    providers++;
    const here = [...at, 'akamai'];
    for (const secret of ['accessTokenSecretRef', 'clientSecretSecretRef', 'clientTokenSecretRef'])
      secretKeySelectorProblems(akamai[secret], [...here, secret], add);
    if (akamai.serviceConsumerDomain === '') {
      add([...here, 'serviceConsumerDomain'], requiredValue(), 'key');
    }
  }
  const azure = object(dns01.azureDNS);
  if (azure !== undefined && single('azureDNS')) azureProblems(azure, [...at, 'azureDNS'], add);
  const cloudDns = object(dns01.cloudDNS);
  if (cloudDns !== undefined && single('cloudDNS')) {
    const here = [...at, 'cloudDNS'];
    if (cloudDns.serviceAccountSecretRef != null) {
      secretKeySelectorProblems(
        cloudDns.serviceAccountSecretRef,
        [...here, 'serviceAccountSecretRef'],
        add,
      );
    }
    if (cloudDns.project === '') add([...here, 'project'], requiredValue(), 'key');
  }
  const cloudflare = object(dns01.cloudflare);
  if (cloudflare !== undefined && single('cloudflare')) {
    cloudflareProblems(cloudflare, [...at, 'cloudflare'], add);
  }
  const route53 = object(dns01.route53);
  if (route53 !== undefined && single('route53')) {
    const here = [...at, 'route53'];
    if (text(route53.accessKeyID) !== '' && route53.accessKeyIDSecretRef != null) {
      add(
        here,
        requiredValue('accessKeyID and accessKeyIDSecretRef cannot both be specified'),
        'key',
      );
    }
    if (route53.accessKeyIDSecretRef != null) {
      secretKeySelectorProblems(
        route53.accessKeyIDSecretRef,
        [...here, 'accessKeyIDSecretRef'],
        add,
      );
    }
  }
  const acmeDns = object(dns01.acmeDNS);
  if (acmeDns !== undefined) {
    providers++;
    const here = [...at, 'acmeDNS'];
    secretKeySelectorProblems(acmeDns.accountSecretRef, [...here, 'accountSecretRef'], add);
    if (acmeDns.host === '') add([...here, 'host'], requiredValue(), 'key');
  }
  const digitalocean = object(dns01.digitalocean);
  if (digitalocean !== undefined && single('digitalocean')) {
    const here = [...at, 'digitalocean', 'tokenSecretRef'];
    secretKeySelectorProblems(digitalocean.tokenSecretRef, here, add);
  }
  const rfc2136 = object(dns01.rfc2136);
  if (rfc2136 !== undefined && single('rfc2136')) rfc2136Problems(rfc2136, [...at, 'rfc2136'], add);
  const webhook = object(dns01.webhook);
  if (webhook !== undefined && single('webhook') && webhook.solverName === '') {
    add([...at, 'webhook', 'solverName'], requiredValue('solver name must be specified'), 'key');
  }
  if (providers === 0) add(at, requiredValue('no DNS01 provider configured'), 'key');
}

/**
 * A secret key selector cert-manager reads a credential through: the CRD asks only its name,
 * the webhook its key too (`ValidateSecretKeySelector`). A name given empty is the schema's when
 * absent.
 */
export function secretKeySelectorProblems(selector: unknown, at: Path, add: Add): void {
  const given = object(selector);
  if (given === undefined) return;
  if (given.name === '') add([...at, 'name'], requiredValue('secret name is required'), 'key');
  if (text(given.key) === '') add([...at, 'key'], requiredValue('secret key is required'), 'key');
}

/** Azure DNS: client credentials all or none, or a managed identity; the subscription and group. */
function azureProblems(azure: Record<string, unknown>, here: Path, add: Add): void {
  const identity = object(azure.managedIdentity);
  const secret = azure.clientSecretSecretRef;
  if (text(azure.clientID) !== '' || text(azure.tenantID) !== '' || secret != null) {
    if (text(azure.clientID) === '') add([...here, 'clientID'], requiredValue(), 'key');
    if (secret == null) add([...here, 'clientSecretSecretRef'], requiredValue(), 'key');
    else secretKeySelectorProblems(secret, [...here, 'clientSecretSecretRef'], add);
    if (text(azure.tenantID) === '') add([...here, 'tenantID'], requiredValue(), 'key');
    if (identity !== undefined) {
      add(
        [...here, 'managedIdentity'],
        forbiddenValue(
          'managed identity cannot be used at the same time as clientID, clientSecretSecretRef or tenantID',
        ),
        'key',
      );
    }
  } else if (identity !== undefined) {
    const clientId = text(identity.clientID) !== '';
    const resourceId = text(identity.resourceID) !== '';
    const tenantId = text(identity.tenantID) !== '';
    const at = [...here, 'managedIdentity'];
    if (clientId && resourceId) {
      const both = 'managedIdentityClientID and managedIdentityResourceID cannot both be specified';
      add(at, forbiddenValue(both), 'key');
    }
    if (tenantId && resourceId) {
      const both = 'managedIdentityTenantID and managedIdentityResourceID cannot both be specified';
      add(at, forbiddenValue(both), 'key');
    }
    if (tenantId && !clientId) {
      const needed = 'managedIdentityClientID is required when using managedIdentityTenantID';
      add(at, requiredValue(needed), 'key');
    }
  }
  if (azure.subscriptionID === '') add([...here, 'subscriptionID'], requiredValue(), 'key');
  if (azure.resourceGroupName === '') add([...here, 'resourceGroupName'], requiredValue(), 'key');
}

/** Cloudflare: an API key (with the account's email) or an API token, not both. */
function cloudflareProblems(cloudflare: Record<string, unknown>, here: Path, add: Add): void {
  const apiKey = cloudflare.apiKeySecretRef != null;
  const apiToken = cloudflare.apiTokenSecretRef != null;
  if (apiKey) {
    secretKeySelectorProblems(cloudflare.apiKeySecretRef, [...here, 'apiKeySecretRef'], add);
  }
  if (apiToken) {
    secretKeySelectorProblems(cloudflare.apiTokenSecretRef, [...here, 'apiTokenSecretRef'], add);
  }
  if (apiKey && apiToken) {
    add(
      here,
      forbiddenValue('apiKeySecretRef and apiTokenSecretRef cannot both be specified'),
      'key',
    );
  }
  if (!apiKey && !apiToken) {
    add(here, requiredValue('apiKeySecretRef or apiTokenSecretRef is required'), 'key');
  }
  if (apiKey && text(cloudflare.email) === '') add([...here, 'email'], requiredValue(), 'key');
}

/** RFC 2136: a nameserver it can dial, a TSIG algorithm it signs with, a key name and secret together. */
function rfc2136Problems(rfc2136: Record<string, unknown>, here: Path, add: Add): void {
  const nameserver = text(rfc2136.nameserver);
  if (nameserver === '') {
    add([...here, 'nameserver'], requiredValue(), 'key');
  } else if (!isRfc2136Nameserver(nameserver)) {
    add(
      [...here, 'nameserver'],
      invalidValue(
        nameserver,
        'nameserver must be set in the form host:port where host is an IPv4 address, an enclosed IPv6 address or a hostname and port is an optional port number.',
      ),
    );
  }
  const algorithm = text(rfc2136.tsigAlgorithm);
  if (algorithm !== '' && !TSIG_ALGORITHMS.includes(algorithm.toUpperCase())) {
    // cert-manager names the value as "" here; the value given says more.
    add([...here, 'tsigAlgorithm'], unsupportedValue(algorithm, TSIG_ALGORITHMS));
  }
  // Not a pointer in cert-manager: absent, it is a selector with neither name nor key.
  const secret = object(rfc2136.tsigSecretSecretRef) ?? { name: '', key: '' };
  const keyName = text(rfc2136.tsigKeyName) !== '';
  if (keyName) secretKeySelectorProblems(secret, [...here, 'tsigSecretSecretRef'], add);
  if (!keyName && text(secret.name) !== '' && text(secret.key) !== '') {
    add([...here, 'tsigKeyName'], requiredValue(), 'key');
  }
}

/**
 * Why a dns01 `nameservers` entry is refused (`ValidDNS01Nameserver`): `host:port` for plain
 * DNS, `https://host...` for DNS over HTTPS; `undefined` when it is taken.
 */
function dns01NameserverProblem(nameserver: string): string | undefined {
  if (nameserver.startsWith('https://')) {
    const rest = nameserver.slice('https://'.length);
    const host = rest.split(/[/?]/, 1)[0] ?? '';
    const control = Array.from(nameserver, (c) => c.charCodeAt(0)).some(
      (code) => code < 0x20 || code === 0x7f,
    );
    return host === '' || control || host.includes(' ')
      ? 'must be in the format https://<DoH RFC 8484 server address>'
      : undefined;
  }
  return splitHostPort(nameserver).error === undefined
    ? undefined
    : 'must be in the format <ip address>:<port>';
}

/**
 * Whether an RFC 2136 nameserver is one cert-manager dials (`ValidNameserver`): `host:port`, or
 * a host alone (port 53), an IPv6 address in brackets; a host is required.
 */
function isRfc2136Nameserver(nameserver: string): boolean {
  const trimmed = nameserver.trim();
  if (trimmed === '') return false;
  const split = splitHostPort(trimmed);
  // A host alone: anything but brackets alone (`[]`), which leave no host once stripped. One
  // anchored class: stripping trailing brackets with `[[\]]+$` took time quadratic in their count.
  if (split.error === 'missing port in address') return !/^[[\]]*$/.test(trimmed);
  return split.error === undefined && split.host !== '';
}

/** Go's `net.SplitHostPort`: the host of `host:port` or `[host]:port`, or why it is neither. */
export function splitHostPort(hostport: string): { host: string; error?: string } {
  const missingPort = { host: '', error: 'missing port in address' };
  const tooManyColons = { host: '', error: 'too many colons in address' };
  const colon = hostport.lastIndexOf(':');
  if (colon < 0) return missingPort;
  let host: string;
  let openFrom = 0;
  let closeFrom = 0;
  if (hostport.startsWith('[')) {
    const end = hostport.indexOf(']');
    if (end < 0) return { host: '', error: "missing ']' in address" };
    if (end + 1 === hostport.length) return missingPort;
    if (end + 1 !== colon) return hostport[end + 1] === ':' ? tooManyColons : missingPort;
    host = hostport.slice(1, end);
    openFrom = 1;
    closeFrom = end + 1;
  } else {
    host = hostport.slice(0, colon);
    if (host.includes(':')) return tooManyColons;
  }
  if (hostport.slice(openFrom).includes('['))
    return { host: '', error: "unexpected '[' in address" };
  if (hostport.slice(closeFrom).includes(']'))
    return { host: '', error: "unexpected ']' in address" };
  return { host };
}
