/**
 * What the API server checks of a ConfigMap's and a Secret's keys in Go
 * (k8s.io/kubernetes `pkg/apis/core/validation` `ValidateConfigMap`, `ValidateSecret`), which
 * the OpenAPI does not: each key is a config key (`IsConfigMapKey`: letters, digits, `-`, `_`
 * and `.`, not `.` or `..`, at most 253 bytes), a key is not in both `data` and `binaryData`,
 * and a Secret of a type that needs keys has them (`tls.crt` and `tls.key` for
 * `kubernetes.io/tls`, ...), `stringData`'s counting as the API server merges it into `data`;
 * and the values hold 1 MiB at most in all (`MaxSecretSize`), binary and Secret data decoded.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
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
  const type = document.type;
  const needed = kind === 'Secret' && typeof type === 'string' ? SECRET_KEYS[type] : undefined;
  for (const key of needed ?? []) {
    if (!seen.has(key)) {
      problems.push({
        path: jsonPointer(['data', key]),
        part: 'value',
        keyword: 'required',
        message: requiredValue(),
      });
    }
  }
  return problems;
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
