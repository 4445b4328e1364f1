/**
 * The cases of kro's `pkg/cel/compatibility_test.go` (`AreTypesStructurallyCompatible`, after
 * cel-go's `IsAssignableType` in `validateExpressionType`, `pkg/graph/builder.go`), on cosi's
 * CEL types.
 */
import { describe, expect, it } from 'vitest';
import { DYN, primitive, type CelType } from '../../../src/loaders/cel/cel-types.js';
import { typeMismatch } from '../../../src/loaders/kro/type-compatibility.js';

const STRING = primitive('string');
const INT = primitive('int');
const BOOL = primitive('bool');
const DOUBLE = primitive('double');
const list = (elem: CelType): CelType => ({ kind: 'list', elem });
const map = (key: CelType, value: CelType): CelType => ({ kind: 'map', key, value });
const object = (fields: Record<string, CelType>): CelType => ({
  kind: 'object',
  fields: new Map(Object.entries(fields)),
});
const optional = (value: CelType): CelType => ({ kind: 'optional', value });

describe("kro's type compatibility of a template field's value", () => {
  it.each([
    ['string to string', STRING, STRING],
    ['int to int', INT, INT],
    ['bool to bool', BOOL, BOOL],
    ['double to double', DOUBLE, DOUBLE],
    ['dyn to string', DYN, STRING],
    ['string to dyn (an int-or-string field)', STRING, DYN],
    ['bool to dyn', BOOL, DYN],
    ['optional(string) to string (unwrapped)', optional(STRING), STRING],
    ['[]string to []string', list(STRING), list(STRING)],
    ['[]dyn to []string', list(DYN), list(STRING)],
    ['[][]string to [][]string', list(list(STRING)), list(list(STRING))],
    ['map[string]string to map[string]string', map(STRING, STRING), map(STRING, STRING)],
    ['map[string]dyn to map[string]string', map(STRING, DYN), map(STRING, STRING)],
    ['map[string]string to an object of strings', map(STRING, STRING), object({ a: STRING })],
    ['an object of strings to map[string]string', object({ a: STRING }), map(STRING, STRING)],
    [
      'an object to an object with more fields',
      object({ a: STRING }),
      object({ a: STRING, b: INT }),
    ],
    // kro finds no fields to compare for a value that is not a map or an object.
    ['bool to an object (kro falls back to accepting it)', BOOL, object({ a: STRING })],
  ])('accepts %s', (_, output, expected) => {
    expect(typeMismatch(output, expected)).toBeUndefined();
  });

  it.each([
    ['string to int', STRING, INT, 'type kind mismatch: got string, expected int'],
    ['int to string', INT, STRING, 'type kind mismatch: got int, expected string'],
    ['bool to string', BOOL, STRING, 'type kind mismatch: got bool, expected string'],
    // `number` is CEL's double: cel-go assigns no int to it, and the kinds differ.
    ['int to double (a number field)', INT, DOUBLE, 'type kind mismatch: got int, expected double'],
    ['optional(bool) to string', optional(BOOL), STRING, 'got bool, expected string'],
    ['[]string to []int', list(STRING), list(INT), 'list element type incompatible'],
    ['[]string to string', list(STRING), STRING, 'type kind mismatch'],
    ['string to []string', STRING, list(STRING), 'type kind mismatch'],
    [
      '[][]string to [][]int',
      list(list(STRING)),
      list(list(INT)),
      'list element type incompatible',
    ],
    ['map[string]string to map[string]int', map(STRING, STRING), map(STRING, INT), 'map value'],
    ['map[string]int to map[int]int', map(STRING, INT), map(INT, INT), 'map key'],
    ['map[string]string to string', map(STRING, STRING), STRING, 'type kind mismatch'],
    ['map[string]int to an object of strings', map(STRING, INT), object({ a: STRING }), '"a"'],
    [
      'an object with a field the expected object lacks',
      object({ a: STRING, extra: STRING }),
      object({ a: STRING }),
      'field "extra" exists in the value but not in the expected type',
    ],
    ['an object with a field of another kind', object({ a: INT }), object({ a: STRING }), '"a"'],
    ['an object of ints to map[string]string', object({ a: INT }), map(STRING, STRING), '"a"'],
  ])('refuses %s', (_, output, expected, why) => {
    expect(typeMismatch(output, expected)).toContain(why);
  });
});
