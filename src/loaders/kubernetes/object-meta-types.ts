/**
 * The Go types of an object's metadata (apimachinery's `ObjectMeta`), as the API server decodes
 * the metadata of a custom resource and of a resource embedded in one: the request is refused
 * when a field does not unmarshal (`json: cannot unmarshal string into Go struct field
 * ObjectMeta.finalizers of type []string`), and with strict field validation (kubectl's default)
 * when it holds a field `ObjectMeta` does not have. A built-in kind's metadata is checked by its
 * OpenAPI schema instead; a CRD's says only `type: object`.
 */

import { didYouMean } from '../did-you-mean.js';
import { rfc3339Error } from '../go-rfc3339.js';
import { jsonPointer } from '../json-pointer.js';
import { describe, isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';

type GoType = 'string' | 'int64' | 'bool' | 'time' | 'strings' | 'string map' | 'object';

/** A Go struct's JSON fields and their types; a slice of structs as `[fields]`. */
interface GoStruct {
  readonly [field: string]: GoType | readonly [GoStruct];
}

const OWNER_REFERENCE: GoStruct = {
  apiVersion: 'string',
  kind: 'string',
  name: 'string',
  uid: 'string',
  controller: 'bool',
  blockOwnerDeletion: 'bool',
};

const MANAGED_FIELDS_ENTRY: GoStruct = {
  manager: 'string',
  operation: 'string',
  apiVersion: 'string',
  time: 'time',
  fieldsType: 'string',
  fieldsV1: 'object',
  subresource: 'string',
};

const OBJECT_META: GoStruct = {
  name: 'string',
  generateName: 'string',
  namespace: 'string',
  selfLink: 'string',
  uid: 'string',
  resourceVersion: 'string',
  generation: 'int64',
  creationTimestamp: 'time',
  deletionTimestamp: 'time',
  deletionGracePeriodSeconds: 'int64',
  labels: 'string map',
  annotations: 'string map',
  ownerReferences: [OWNER_REFERENCE],
  finalizers: 'strings',
  managedFields: [MANAGED_FIELDS_ENTRY],
};

const WANTED: Readonly<Record<GoType, string>> = {
  string: 'a string',
  int64: 'an integer',
  bool: 'a boolean',
  time: 'an RFC 3339 time, as 2024-01-02T15:04:05Z',
  strings: 'a sequence of strings',
  'string map': 'a mapping of strings',
  object: 'a mapping',
};

export interface MetadataTypeOptions {
  /** Where the metadata is, in the checked value: `['metadata']`, `['spec', 'template', 'metadata']`. */
  readonly at: readonly (string | number)[];
  /** Fields left to other checks (the root's name, labels, ... are read by the manifest's header). */
  readonly skip?: ReadonlySet<string>;
  /** Whether a key `ObjectMeta` does not have is reported (the root's are, by the header). */
  readonly unknownKeys: boolean;
}

/** Each field of `metadata` whose value its Go type does not take, and each unknown key. */
export function objectMetaTypeProblems(
  metadata: unknown,
  options: MetadataTypeOptions,
): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  if (metadata === null || metadata === undefined) return problems;
  if (!isPlainObject(metadata)) {
    problems.push(wrongType(options.at, 'metadata', 'object', metadata));
    return problems;
  }
  checkStruct(metadata, OBJECT_META, options.at, 'metadata', options, problems);
  return problems;
}

function checkStruct(
  value: Record<string, unknown>,
  struct: GoStruct,
  at: readonly (string | number)[],
  name: string,
  options: MetadataTypeOptions,
  problems: SchemaProblem[],
): void {
  const top = struct === OBJECT_META;
  for (const [key, item] of Object.entries(value)) {
    if (top && options.skip?.has(key)) continue;
    const type = Object.prototype.hasOwnProperty.call(struct, key) ? struct[key] : undefined;
    const path = [...at, key];
    if (type === undefined) {
      if (!options.unknownKeys) continue;
      const guess = didYouMean(key, Object.keys(struct));
      problems.push({
        path: jsonPointer(path),
        part: 'key',
        keyword: 'unknown-field',
        message: `unknown field ${JSON.stringify(key)} in ${name}${guess === undefined ? '' : ` (did you mean ${JSON.stringify(guess)}?)`}: ${top ? 'ObjectMeta' : 'it'} has no such field, so kubectl refuses it (strict field validation, its default) and the API server alone would drop it`,
      });
      continue;
    }
    // Go's JSON decoder leaves a field at its zero value for `null`.
    if (item === null) continue;
    if (typeof type !== 'string') {
      const [element] = type;
      if (!Array.isArray(item)) {
        problems.push(wrongType(path, `${name}.${key}`, 'sequence of mappings', item));
        continue;
      }
      item.forEach((entry: unknown, i) => {
        if (entry === null) return;
        if (!isPlainObject(entry)) {
          problems.push(wrongType([...path, i], `${name}.${key}[${i}]`, 'object', entry));
        } else {
          checkStruct(entry, element, [...path, i], `${name}.${key}[${i}]`, options, problems);
        }
      });
      continue;
    }
    checkValue(item, type, path, `${name}.${key}`, problems);
  }
}

function checkValue(
  value: unknown,
  type: GoType,
  path: readonly (string | number)[],
  name: string,
  problems: SchemaProblem[],
): void {
  switch (type) {
    case 'string':
      if (typeof value !== 'string') problems.push(wrongType(path, name, type, value));
      return;
    case 'int64':
      if (!Number.isSafeInteger(value)) problems.push(wrongType(path, name, type, value));
      return;
    case 'bool':
      if (typeof value !== 'boolean') problems.push(wrongType(path, name, type, value));
      return;
    case 'object':
      if (!isPlainObject(value)) problems.push(wrongType(path, name, type, value));
      return;
    case 'time': {
      const error = typeof value === 'string' ? rfc3339Error(value) : 'not a string';
      if (error !== undefined) problems.push(wrongType(path, name, type, value));
      return;
    }
    case 'strings':
      if (!Array.isArray(value)) {
        problems.push(wrongType(path, name, type, value));
        return;
      }
      value.forEach((item: unknown, i) => {
        if (item !== null && typeof item !== 'string') {
          problems.push(wrongType([...path, i], `${name}[${i}]`, 'string', item));
        }
      });
      return;
    case 'string map':
      if (!isPlainObject(value)) {
        problems.push(wrongType(path, name, type, value));
        return;
      }
      for (const [key, item] of Object.entries(value)) {
        if (item !== null && typeof item !== 'string') {
          problems.push(
            wrongType([...path, key], `${name}[${JSON.stringify(key)}]`, 'string', item),
          );
        }
      }
      return;
  }
}

function wrongType(
  path: readonly (string | number)[],
  name: string,
  type: GoType | 'sequence of mappings',
  value: unknown,
): SchemaProblem {
  const wanted = type === 'sequence of mappings' ? 'a sequence of mappings' : WANTED[type];
  return {
    path: jsonPointer(path),
    part: 'value',
    keyword: 'wrong-type',
    message: `${name} must be ${wanted}, not ${describe(value)}: the API server cannot decode it as ObjectMeta`,
  };
}
