/**
 * What the API server checks of a ConfigMap's and a Secret's keys in Go
 * (k8s.io/kubernetes `pkg/apis/core/validation` `ValidateConfigMap`, `ValidateSecret`), which
 * the OpenAPI does not: each key is a config key (`IsConfigMapKey`: letters, digits, `-`, `_`
 * and `.`, not `.` or `..`, at most 253 bytes), a key is not in both `data` and `binaryData`,
 * and a Secret has what its type needs (`tls.crt` and `tls.key` for `kubernetes.io/tls`, a
 * Docker config that decodes as a JSON object, ...), `stringData`'s counting as the API server
 * merges it into `data`; and the values hold 1 MiB at most in all (`MaxSecretSize`), binary and
 * Secret data decoded.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { unmarshalObjectError } from '../go-json-unmarshal.js';
import { decodeBase64 } from '../string-formats.js';
import { configKeyProblems } from './container-env.js';
import { invalidValue, requiredValue } from './go-field-error.js';

/** The most bytes a ConfigMap's or a Secret's values hold in all (`core.MaxSecretSize`). */
const MAX_DATA_BYTES = 1024 * 1024;

/** The keys a Secret of a type must have, by its type. */
const SECRET_KEYS: Readonly<Record<string, readonly string[]>> = {
  'kubernetes.io/tls': ['tls.crt', 'tls.key'],
  'kubernetes.io/dockerconfigjson': ['.dockerconfigjson'],
  'kubernetes.io/dockercfg': ['.dockercfg'],
  'kubernetes.io/ssh-auth': ['ssh-privatekey'],
};

/** The Secret types whose key holds a Docker config, which must decode as a JSON object. */
const DOCKER_CONFIG_KEYS: Readonly<Record<string, string>> = {
  'kubernetes.io/dockerconfigjson': '.dockerconfigjson',
  'kubernetes.io/dockercfg': '.dockercfg',
};

/** The annotation naming the account of a `kubernetes.io/service-account-token` Secret. */
const SERVICE_ACCOUNT_NAME = 'kubernetes.io/service-account.name';

/** The key problems of a built-in document of `group`/`kind` (a ConfigMap's or a Secret's). */
export function configDataProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== '' || (kind !== 'ConfigMap' && kind !== 'Secret')) return [];
  const problems: SchemaProblem[] = [];
  const add = (path: string[], keyword: string, message: string): void => {
    problems.push({ path: jsonPointer(path), part: 'key', keyword, message });
  };
  const maps = kind === 'ConfigMap' ? ['data', 'binaryData'] : ['data', 'stringData'];
  const seen = new Set<string>();
  for (const field of maps) {
    const entries = document[field];
    if (!isPlainObject(entries)) continue;
    for (const key of Object.keys(entries)) {
      for (const message of configKeyProblems(key)) {
        add([field, key], 'config-key', invalidValue(key, message));
      }
      if (kind === 'ConfigMap' && field === 'binaryData' && seen.has(key)) {
        add([field, key], 'config-key', invalidValue(key, 'duplicate of key present in data'));
      }
      seen.add(key);
    }
  }
  const bytes = dataBytes(document, kind);
  if (bytes > MAX_DATA_BYTES) {
    problems.push({
      // ValidateConfigMap reports it at the whole object, ValidateSecret at `data`.
      path: kind === 'Secret' ? '/data' : '',
      part: 'value',
      keyword: 'maxLength',
      message: `Too long: may not be more than ${MAX_DATA_BYTES} bytes (its data holds ${bytes})`,
    });
  }
  if (kind === 'Secret') problems.push(...secretTypeProblems(document, seen));
  return problems;
}

/**
 * What `ValidateSecret` asks of a Secret by its type: the keys of its type (`keys`: those of
 * `data` and `stringData`), a non-empty `ssh-privatekey`, a username or a password for basic
 * auth, a Docker config that decodes as a JSON object (`<secret contents redacted>` and Go's
 * error), and the account's name annotated on a service account token.
 */
function secretTypeProblems(
  document: Record<string, unknown>,
  keys: ReadonlySet<string>,
): SchemaProblem[] {
  const type = document.type;
  if (typeof type !== 'string') return [];
  const problems: SchemaProblem[] = [];
  const required = (path: string[]): void => {
    problems.push({
      path: jsonPointer(path),
      part: 'value',
      keyword: 'required',
      message: requiredValue(),
    });
  };
  for (const key of SECRET_KEYS[type] ?? []) {
    if (!keys.has(key)) required(['data', key]);
  }
  if (type === 'kubernetes.io/basic-auth' && !keys.has('username') && !keys.has('password')) {
    required(['data', 'username']);
    required(['data', 'password']);
  }
  if (type === 'kubernetes.io/ssh-auth' && keys.has('ssh-privatekey')) {
    const value = secretValue(document, 'ssh-privatekey');
    if (value !== undefined && value.bytes.length === 0) required([value.field, 'ssh-privatekey']);
  }
  const dockerKey = DOCKER_CONFIG_KEYS[type];
  const docker = dockerKey === undefined ? undefined : secretValue(document, dockerKey);
  const error = docker === undefined ? undefined : unmarshalObjectError(docker.bytes);
  if (docker !== undefined && error !== undefined) {
    problems.push({
      path: jsonPointer([docker.field, dockerKey as string]),
      part: 'value',
      keyword: 'format',
      message: invalidValue('<secret contents redacted>', error),
    });
  }
  if (type === 'kubernetes.io/service-account-token') {
    const metadata = document.metadata;
    const annotations = isPlainObject(metadata) ? metadata.annotations : undefined;
    const name = isPlainObject(annotations) ? annotations[SERVICE_ACCOUNT_NAME] : undefined;
    if (typeof name !== 'string' || name === '') {
      required(['metadata', 'annotations', SERVICE_ACCOUNT_NAME]);
    }
  }
  return problems;
}

/**
 * A Secret's value of `key` as the API server holds it: `stringData`'s text (merged over `data`),
 * else `data`'s decoded bytes; undefined when neither holds a string that decodes (the schema
 * reports a value that is not base64).
 */
function secretValue(
  document: Record<string, unknown>,
  key: string,
): { field: 'data' | 'stringData'; bytes: Uint8Array } | undefined {
  const text = isPlainObject(document.stringData) ? document.stringData[key] : undefined;
  if (typeof text === 'string') return { field: 'stringData', bytes: Buffer.from(text) };
  const encoded = isPlainObject(document.data) ? document.data[key] : undefined;
  if (typeof encoded === 'string') {
    const bytes = decodeBase64(encoded);
    return bytes === undefined ? undefined : { field: 'data', bytes };
  }
  return undefined;
}

/**
 * The bytes a ConfigMap's or a Secret's values hold as the API server counts them: a text value's
 * UTF-8 bytes, a base64 value's decoded bytes (`binaryData`, a Secret's `data`); a Secret's
 * `stringData` replaces `data` of the same key.
 */
function dataBytes(document: Record<string, unknown>, kind: string): number {
  const sizes = new Map<string, number>();
  const count = (field: string, decode: boolean): void => {
    const entries = document[field];
    if (!isPlainObject(entries)) return;
    for (const [key, value] of Object.entries(entries)) {
      if (typeof value !== 'string') continue;
      const bytes = decode ? Buffer.from(value, 'base64').length : Buffer.byteLength(value);
      sizes.set(kind === 'ConfigMap' ? `${field}/${key}` : key, bytes);
    }
  };
  if (kind === 'ConfigMap') {
    count('data', false);
    count('binaryData', true);
  } else {
    count('data', true);
    count('stringData', false);
  }
  let total = 0;
  for (const bytes of sizes.values()) total += bytes;
  return total;
}
