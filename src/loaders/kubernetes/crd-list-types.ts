/**
 * The API server's rules for the list and map annotations of a CRD schema
 * (apiextensions-apiserver `ValidateCustomResourceDefinitionOpenAPISchema`, with the options a
 * new CRD is created under, `requireAtomicSetType` and `requireMapListKeysMapSetValidation`):
 * `x-kubernetes-map-type` (atomic or granular) only on objects; `x-kubernetes-list-type` (atomic,
 * set or map) only on arrays, a set's items atomic; `x-kubernetes-list-map-keys` only with the
 * map type, which needs them: names of scalar properties of object items, each key required or
 * defaulted and not nullable, no item nullable. Each problem at its node, in the API server's
 * words. Without these, a CRD the API server refuses was taken, and its lists were read by keys
 * it would never have. The schemas under `allOf`, `anyOf`, `oneOf` and `not` are checked too, as
 * the API server's walk goes there.
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import {
  forbiddenValue,
  goValue,
  invalidStringList,
  invalidValue,
  requiredValue,
  unsupportedValue,
} from './go-field-error.js';

const LIST_TYPES = ['atomic', 'set', 'map'];
const MAP_TYPES = ['atomic', 'granular'];

/** Every list and map annotation problem of a CRD schema, at paths inside the schema. */
export function findListTypeProblems(schema: JsonSchema): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  walk(schema, [], problems);
  return problems;
}

function walk(node: JsonSchema, path: string[], problems: SchemaProblem[]): void {
  const add = (at: string[], keyword: string, message: string): void => {
    problems.push({ path: jsonPointer([...path, ...at]), part: 'value', keyword, message });
  };
  checkMapType(node, add);
  checkListType(node, add);
  if (isPlainObject(node.properties)) {
    for (const [name, child] of Object.entries(node.properties)) {
      if (isPlainObject(child)) walk(child, [...path, 'properties', name], problems);
    }
  }
  if (isPlainObject(node.items)) walk(node.items, [...path, 'items'], problems);
  if (isPlainObject(node.additionalProperties)) {
    walk(node.additionalProperties, [...path, 'additionalProperties'], problems);
  }
  // The junctors' schemas are held to the same rules (beside being refused as not structural
  // there): `allOf: [{x-kubernetes-map-type: atomic}]` has no type, so its map type needs one.
  if (isPlainObject(node.not)) walk(node.not, [...path, 'not'], problems);
  for (const junctor of ['allOf', 'oneOf', 'anyOf'] as const) {
    const subs: unknown = node[junctor];
    if (!Array.isArray(subs)) continue;
    subs.forEach((sub: unknown, i) => {
      if (isPlainObject(sub)) walk(sub, [...path, junctor, String(i)], problems);
    });
  }
}

type Add = (at: string[], keyword: string, message: string) => void;

function checkMapType(node: JsonSchema, add: Add): void {
  const mapType = node['x-kubernetes-map-type'];
  if (mapType === undefined) return;
  if (node.type !== 'object') {
    const detail = 'must be object if x-kubernetes-map-type is specified';
    add(
      ['type'],
      'x-kubernetes-map-type',
      node.type === undefined ? requiredValue(detail) : invalidValue(node.type, detail),
    );
  }
  if (typeof mapType !== 'string' || !MAP_TYPES.includes(mapType)) {
    add(['x-kubernetes-map-type'], 'x-kubernetes-map-type', unsupportedValue(mapType, MAP_TYPES));
  }
}

function checkListType(node: JsonSchema, add: Add): void {
  const listType = node['x-kubernetes-list-type'];
  const keys = Array.isArray(node['x-kubernetes-list-map-keys'])
    ? (node['x-kubernetes-list-map-keys'] as unknown[])
    : [];
  const items = isPlainObject(node.items) ? node.items : undefined;
  if (listType !== undefined && node.type !== 'array') {
    const detail = 'must be array if x-kubernetes-list-type is specified';
    add(
      ['type'],
      'x-kubernetes-list-type',
      node.type === undefined ? requiredValue(detail) : invalidValue(node.type, detail),
    );
  } else if (listType === 'set' && items !== undefined) {
    const itemListType = items['x-kubernetes-list-type'];
    const itemMapType = items['x-kubernetes-map-type'];
    if (items.type === 'array' && itemListType !== undefined && itemListType !== 'atomic') {
      add(
        ['items', 'x-kubernetes-list-type'],
        'x-kubernetes-list-type',
        invalidValue(
          itemListType,
          'must be atomic as item of a list with x-kubernetes-list-type=set',
        ),
      );
    } else if (items.type === 'object' && itemMapType !== 'atomic') {
      add(
        ['items', 'x-kubernetes-map-type'],
        'x-kubernetes-list-type',
        invalidValue(
          itemMapType ?? null,
          'must be atomic as item of a list with x-kubernetes-list-type=set',
        ),
      );
    }
  }
  if (listType !== undefined && (typeof listType !== 'string' || !LIST_TYPES.includes(listType))) {
    add(
      ['x-kubernetes-list-type'],
      'x-kubernetes-list-type',
      unsupportedValue(listType, LIST_TYPES),
    );
  }
  const keyNames = keys.map((key) => (typeof key === 'string' ? key : goValue(key)));
  if (keys.length > 0 && listType !== 'map') {
    const detail = 'must be map if x-kubernetes-list-map-keys is non-empty';
    add(
      ['x-kubernetes-list-type'],
      'x-kubernetes-list-type',
      listType === undefined ? requiredValue(detail) : invalidValue(listType, detail),
    );
  }
  if (listType === 'map') {
    if (keys.length === 0) {
      add(
        ['x-kubernetes-list-map-keys'],
        'x-kubernetes-list-type',
        requiredValue('must not be empty if x-kubernetes-list-type is map'),
      );
    }
    if (items === undefined) {
      add(
        ['items'],
        'x-kubernetes-list-type',
        requiredValue('must have a schema if x-kubernetes-list-type is map'),
      );
    } else if (items.type !== 'object') {
      add(
        ['items', 'type'],
        'x-kubernetes-list-type',
        invalidValue(
          items.type ?? '',
          "must be object if parent array's x-kubernetes-list-type is map",
        ),
      );
    } else {
      checkMapKeys(items, keyNames, add);
    }
  }
  if ((listType === 'set' || listType === 'map') && items?.nullable === true) {
    add(
      ['items', 'nullable'],
      'x-kubernetes-list-type',
      forbiddenValue(`cannot be nullable when x-kubernetes-list-type is ${listType}`),
    );
  }
}

/** The keys of a map list: scalar properties of the items, once each, required or defaulted. */
function checkMapKeys(items: JsonSchema, keys: readonly string[], add: Add): void {
  const properties = isPlainObject(items.properties) ? items.properties : {};
  const required = new Set(Array.isArray(items.required) ? (items.required as unknown[]) : []);
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) {
      add(
        ['x-kubernetes-list-map-keys'],
        'x-kubernetes-list-type',
        invalidStringList(keys, 'must not contain duplicate entries'),
      );
      continue;
    }
    seen.add(key);
    const property = Object.prototype.hasOwnProperty.call(properties, key)
      ? properties[key]
      : undefined;
    if (!isPlainObject(property)) {
      add(
        ['x-kubernetes-list-map-keys'],
        'x-kubernetes-list-type',
        invalidStringList(keys, 'entries must all be names of item properties'),
      );
    } else {
      if (property.type === 'array' || property.type === 'object') {
        add(
          ['items', 'properties', key, 'type'],
          'x-kubernetes-list-type',
          invalidValue(
            'object',
            "must be a scalar type if parent array's x-kubernetes-list-type is map",
          ),
        );
      }
      if (!required.has(key) && property.default === undefined) {
        add(
          ['items', 'properties', key, 'default'],
          'x-kubernetes-list-type',
          requiredValue(
            'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
          ),
        );
      }
      if (property.nullable === true) {
        add(
          ['items', 'properties', key, 'nullable'],
          'x-kubernetes-list-type',
          forbiddenValue(
            'this property is in x-kubernetes-list-map-keys, so it cannot be nullable',
          ),
        );
      }
    }
  }
}
