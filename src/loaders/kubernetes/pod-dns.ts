/**
 * What the API server checks of a pod's name resolution in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `validatePodDNSConfig`, `ValidateHostAliases`): `dnsPolicy: None`
 * needs a `dnsConfig` with a nameserver; at most 3 nameservers, each an IP address; at most 32
 * search domains of at most 2048 characters together (spaces between them counted), each a
 * DNS-1123 subdomain once a trailing dot is cut; every option named; a host alias's `ip` an IP
 * address and its hostnames DNS-1123 subdomains. Each problem at its field, in the API server's
 * words.
 *
 * Which search domains are valid depends on the release: from 1.33 (`RelaxedDNSSearchValidation`,
 * on by default in 1.33, GA in 1.34) a domain may hold `_` and `.` alone is taken.
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { invalidStringList, invalidValue, requiredValue } from './go-field-error.js';
import { INVALID_IP_MESSAGE, isSloppyIpAddress } from './ip-address.js';
import { releaseAtLeast, type KubernetesRelease } from './kubernetes-release.js';
import {
  dns1123SubdomainProblems,
  dns1123SubdomainWithUnderscoreProblems,
  type Add,
} from './label-syntax.js';
import { podSpecOf } from './pod-spec-paths.js';

/** Limits of libc's resolver the API server enforces (`MaxDNSNameservers` and the others). */
const MAX_NAMESERVERS = 3;
const MAX_SEARCH_PATHS = 32;
const MAX_SEARCH_LIST_CHARS = 2048;
/** The first release whose API server takes relaxed search domains by default. */
const RELAXED_SEARCH_SINCE: KubernetesRelease = '1.33';
/** The first release whose OpenAPI requires a host alias's `ip` (and so reports it missing). */
const ALIAS_IP_REQUIRED_SINCE: KubernetesRelease = '1.31';

/** The DNS config and host alias problems of a built-in document of `group`/`kind` of `release`. */
export function podDnsProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
  release: KubernetesRelease,
): SchemaProblem[] {
  const pod = podSpecOf(document, group, kind);
  if (!pod) return [];
  const { spec, problems, add } = pod;
  dnsConfigProblems(
    spec.dnsConfig,
    spec.dnsPolicy,
    releaseAtLeast(release, RELAXED_SEARCH_SINCE),
    (path, k, m) => add(['dnsConfig', ...path], k, m),
  );
  hostAliasProblems(
    spec.hostAliases,
    releaseAtLeast(release, ALIAS_IP_REQUIRED_SINCE),
    (path, k, m) => add(['hostAliases', ...path], k, m),
  );
  return problems;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** `validatePodDNSConfig`. */
function dnsConfigProblems(config: unknown, policy: unknown, relaxed: boolean, add: Add): void {
  const given = isPlainObject(config);
  if (policy === 'None') {
    if (!given) {
      add([], 'dns-config', requiredValue('must provide `dnsConfig` when `dnsPolicy` is None'));
      return;
    }
    if (!Array.isArray(config.nameservers) || config.nameservers.length === 0) {
      add(
        ['nameservers'],
        'dns-config',
        requiredValue('must provide at least one DNS nameserver when `dnsPolicy` is None'),
      );
      return;
    }
  }
  if (!given) return;
  const nameservers = strings(config.nameservers);
  if (nameservers.length > MAX_NAMESERVERS) {
    add(
      ['nameservers'],
      'dns-config',
      invalidStringList(nameservers, `must not have more than ${MAX_NAMESERVERS} nameservers`),
    );
  }
  if (Array.isArray(config.nameservers)) {
    config.nameservers.forEach((nameserver: unknown, i) => {
      if (typeof nameserver === 'string' && !isSloppyIpAddress(nameserver)) {
        add(['nameservers', i], 'ip-address', invalidValue(nameserver, INVALID_IP_MESSAGE));
      }
    });
  }
  const searches = strings(config.searches);
  if (searches.length > MAX_SEARCH_PATHS) {
    add(
      ['searches'],
      'dns-config',
      invalidStringList(searches, `must not have more than ${MAX_SEARCH_PATHS} search paths`),
    );
  }
  if (searches.join(' ').length > MAX_SEARCH_LIST_CHARS) {
    add(
      ['searches'],
      'dns-config',
      invalidStringList(
        searches,
        `must not have more than ${MAX_SEARCH_LIST_CHARS} characters (including spaces) in the search list`,
      ),
    );
  }
  if (Array.isArray(config.searches)) {
    config.searches.forEach((search: unknown, i) => {
      if (typeof search !== 'string' || (relaxed && search === '.')) return;
      // A trailing dot (a fully qualified name) is fine.
      const domain = search.endsWith('.') ? search.slice(0, -1) : search;
      const messages = relaxed
        ? dns1123SubdomainWithUnderscoreProblems(domain)
        : dns1123SubdomainProblems(domain);
      for (const message of messages) {
        add(['searches', i], 'dns-name', invalidValue(domain, message));
      }
    });
  }
  if (Array.isArray(config.options)) {
    config.options.forEach((option: unknown, i) => {
      if (!isPlainObject(option)) return;
      const name = option.name;
      if (name === undefined || name === null || name === '') {
        add(['options', i], 'required', requiredValue('must not be empty'));
      }
    });
  }
}

/** `ValidateHostAliases`. */
function hostAliasProblems(aliases: unknown, ipRequiredBySchema: boolean, add: Add): void {
  if (!Array.isArray(aliases)) return;
  aliases.forEach((alias: unknown, i) => {
    if (!isPlainObject(alias)) return;
    // An absent `ip` is Go's empty string, no IP address; the OpenAPI reports it where it requires one.
    const ip = alias.ip ?? (ipRequiredBySchema ? undefined : '');
    if (typeof ip === 'string' && !isSloppyIpAddress(ip)) {
      add([i, 'ip'], 'ip-address', invalidValue(ip, INVALID_IP_MESSAGE));
    }
    if (!Array.isArray(alias.hostnames)) return;
    alias.hostnames.forEach((hostname: unknown, j) => {
      if (typeof hostname !== 'string') return;
      for (const message of dns1123SubdomainProblems(hostname)) {
        add([i, 'hostnames', j], 'dns-name', invalidValue(hostname, message));
      }
    });
  });
}
