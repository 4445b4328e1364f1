/**
 * What the API server checks of a container's environment in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `ValidateEnv`, `validateEnvVarValueFrom`, `ValidateEnvFrom`): a
 * variable's name is given and valid, a `valueFrom` has exactly one source and no `value` beside
 * it, a key reference names a valid ConfigMap or Secret (a DNS-1123 subdomain, never empty) and a
 * valid key, an `envFrom` reference a valid name, a field or resource reference a field or resource the
 * downward API exposes (`object-field-selector.ts`), and an `envFrom` entry has exactly one source. Each problem at its field, in the API
 * server's words.
 *
 * Which names are valid depends on the release: before 1.32 a name is C-identifier-like
 * (apimachinery `IsEnvVarName`); from 1.32 on (`RelaxedEnvironmentVariableValidation`, on by
 * default in 1.32, GA in 1.34) any printable ASCII but `=` (`IsRelaxedEnvVarName`).
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { invalidValue, requiredValue } from './go-field-error.js';
import { releaseAtLeast, type KubernetesRelease } from './kubernetes-release.js';
import { dns1123SubdomainProblems } from './label-syntax.js';
import { ENV_FIELD_PATHS, objectFieldSelectorProblems } from './object-field-selector.js';
import { CONTAINER_LISTS, podSpecOf } from './pod-spec-paths.js';
import { resourceFieldSelectorProblems } from './resource-field-selector.js';

const ENV_VAR_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
const ENV_VAR_NAME_MESSAGE =
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";
const RELAXED_ENV_VAR_NAME_MESSAGE =
  "a valid environment variable name must consist only of printable ASCII characters other than '='";
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const CONFIG_KEY_MESSAGE =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const VALUE_FROM_SOURCES = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'];
/** `fileKeyRef` (EnvFiles): a source from the release that enables it by default (beta). */
const FILE_KEY_REF_SINCE: KubernetesRelease = '1.35';
const ENV_FROM_SOURCES = ['configMapRef', 'secretRef'];
const ONE_FIELD = 'may not have more than one field specified at a time';
/** The first release whose API server takes relaxed names by default. */
const RELAXED_SINCE: KubernetesRelease = '1.32';

type Add = (path: (string | number)[], keyword: string, message: string) => void;

/** The environment problems of a built-in document of `group`/`kind` of `release`. */
export function containerEnvProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
  release: KubernetesRelease,
): SchemaProblem[] {
  const pod = podSpecOf(document, group, kind);
  if (!pod) return [];
  const { spec, problems, add } = pod;
  const relaxed = releaseAtLeast(release, RELAXED_SINCE);
  const sources = releaseAtLeast(release, FILE_KEY_REF_SINCE)
    ? [...VALUE_FROM_SOURCES, 'fileKeyRef']
    : VALUE_FROM_SOURCES;
  for (const list of CONTAINER_LISTS) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((container: unknown, i) => {
      if (!isPlainObject(container)) return;
      const at: Add = (path, keyword, message) => add([list, i, ...path], keyword, message);
      envProblems(container.env, relaxed, sources, at);
      envFromProblems(container.envFrom, relaxed, at);
    });
  }
  return problems;
}

/** `ValidateEnv`. */
function envProblems(
  env: unknown,
  relaxed: boolean,
  valueSources: readonly string[],
  add: Add,
): void {
  if (!Array.isArray(env)) return;
  env.forEach((variable: unknown, j) => {
    if (!isPlainObject(variable)) return;
    const name = variable.name;
    if (name === '') add(['env', j, 'name'], 'required', requiredValue());
    else if (typeof name === 'string') {
      for (const message of envVarNameProblems(name, relaxed)) {
        add(['env', j, 'name'], 'env-name', invalidValue(name, message));
      }
    }
    const valueFrom = variable.valueFrom;
    if (!isPlainObject(valueFrom)) return;
    const at: Add = (path, keyword, message) =>
      add(['env', j, 'valueFrom', ...path], keyword, message);
    let sources = 0;
    for (const source of valueSources) {
      const selector = valueFrom[source];
      if (selector === undefined || selector === null) continue;
      sources++;
      if (isPlainObject(selector))
        selectorProblems(source, selector, (p, k, m) => at([source, ...p], k, m));
    }
    const value = variable.value;
    if (sources === 0) {
      at([], 'env-source', invalidValue('', `must specify one of: ${oneOf(valueSources)}`));
    } else if (typeof value === 'string' && value !== '') {
      at([], 'env-source', invalidValue('', 'may not be specified when `value` is not empty'));
    } else if (sources > 1) {
      at([], 'env-source', invalidValue('', ONE_FIELD));
    }
  });
}

/** `` `a`, `b` or `c` ``. */
function oneOf(sources: readonly string[]): string {
  const quoted = sources.map((source) => `\`${source}\``);
  return `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1) ?? ''}`;
}

/** The checks of one `valueFrom` source that the OpenAPI does not make. */
function selectorProblems(source: string, selector: Record<string, unknown>, add: Add): void {
  switch (source) {
    case 'fieldRef':
      objectFieldSelectorProblems(selector, ENV_FIELD_PATHS, add);
      return;
    case 'resourceFieldRef':
      resourceFieldSelectorProblems(selector, false, add);
      return;
    case 'fileKeyRef': {
      // `validateFileKeySelector`: the key is a variable's name (the relaxed rule of its release).
      const key = selector.key;
      if (key === '') add(['key'], 'required', requiredValue());
      else if (typeof key === 'string') {
        for (const message of envVarNameProblems(key, true)) {
          add(['key'], 'env-name', invalidValue(key, message));
        }
      }
      return;
    }
    default: {
      // configMapKeyRef, secretKeyRef: `validateConfigMapKeySelector`, `validateSecretKeySelector`.
      // The name is a DNS-1123 subdomain, an empty or missing one too (it fails the pattern).
      const name = selector.name ?? '';
      if (typeof name === 'string') {
        for (const message of dns1123SubdomainProblems(name)) {
          add(['name'], 'dns-1123-subdomain', invalidValue(name, message));
        }
      }
      const key = selector.key;
      if (key === '') add(['key'], 'required', requiredValue());
      else if (typeof key === 'string') {
        for (const message of configKeyProblems(key)) {
          add(['key'], 'config-key', invalidValue(key, message));
        }
      }
    }
  }
}

/** `ValidateEnvFrom`. */
function envFromProblems(envFrom: unknown, relaxed: boolean, add: Add): void {
  if (!Array.isArray(envFrom)) return;
  envFrom.forEach((entry: unknown, j) => {
    if (!isPlainObject(entry)) return;
    const prefix = entry.prefix;
    if (typeof prefix === 'string' && prefix !== '') {
      for (const message of envVarNameProblems(prefix, relaxed)) {
        add(['envFrom', j, 'prefix'], 'env-name', invalidValue(prefix, message));
      }
    }
    let sources = 0;
    for (const source of ENV_FROM_SOURCES) {
      const reference = entry[source];
      if (reference === undefined || reference === null) continue;
      sources++;
      const name = isPlainObject(reference) ? reference.name : undefined;
      if (name === undefined || name === null || name === '') {
        add(['envFrom', j, source, 'name'], 'required', requiredValue());
      } else if (typeof name === 'string') {
        // `ValidateConfigMapName`, `ValidateSecretName` with `prefix` true: a trailing dash passes.
        for (const message of dns1123SubdomainProblems(maskTrailingDash(name))) {
          add(['envFrom', j, source, 'name'], 'dns-1123-subdomain', invalidValue(name, message));
        }
      }
    }
    // Go reports these at the list, not at the entry.
    if (sources === 0) {
      add(
        ['envFrom'],
        'env-source',
        invalidValue('', 'must specify one of: `configMapRef` or `secretRef`'),
      );
    } else if (sources > 1) add(['envFrom'], 'env-source', invalidValue('', ONE_FIELD));
  });
}

/**
 * apimachinery's `MaskTrailingDash`, which lets a name checked as a prefix end in `-`: it drops
 * the last two characters for an `a` (Go's own arithmetic).
 */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

/** apimachinery's `IsEnvVarName` (strict) or `IsRelaxedEnvVarName`, every message it gives. */
export function envVarNameProblems(name: string, relaxed: boolean): string[] {
  if (relaxed) {
    if (name === '') return ['environment variable name must be non-empty'];
    for (const character of name) {
      const code = character.codePointAt(0) ?? 0;
      if (code < 0x20 || code > 0x7e || character === '=') return [RELAXED_ENV_VAR_NAME_MESSAGE];
    }
    return [];
  }
  const problems: string[] = [];
  if (!ENV_VAR_NAME.test(name)) problems.push(ENV_VAR_NAME_MESSAGE);
  problems.push(...directoryPrefixProblems(name));
  return problems;
}

/** apimachinery's `IsConfigMapKey`. */
export function configKeyProblems(key: string): string[] {
  const problems: string[] = [];
  if (new TextEncoder().encode(key).length > 253)
    problems.push('must be no more than 253 characters');
  if (!CONFIG_KEY.test(key)) problems.push(CONFIG_KEY_MESSAGE);
  problems.push(...directoryPrefixProblems(key));
  return problems;
}

/** apimachinery's `hasChDirPrefix`. */
function directoryPrefixProblems(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}
