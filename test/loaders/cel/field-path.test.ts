import { describe, expect, it } from 'vitest';
import { resolveFieldPath } from '../../../src/loaders/cel/field-path.js';

/** The schema of k8s.io/apiextensions-apiserver's TestValidateFieldPath (schema/cel). */
const schema = {
  type: 'object',
  properties: {
    foo: {
      type: 'object',
      additionalProperties: { type: 'object', properties: { subAdd: { type: 'number' } } },
    },
    'white space': { type: 'number' },
    "'foo'bar": { type: 'number' },
    a: {
      type: 'object',
      properties: {
        "foo's": { type: 'number' },
        'test\x07': { type: 'number' },
        'bb[b': { type: 'number' },
        bbb: { type: 'object', properties: { c: { type: 'number' }, '34': { type: 'number' } } },
        'bbb.c': { type: 'object', properties: { "a-b.3'4": { type: 'number' } } },
      },
    },
    list: {
      type: 'array',
      items: {
        type: 'object',
        properties: { a: { type: 'number' }, "a-b.3'4": { type: 'number' } },
      },
    },
  },
};

const keys = (path: string) => {
  const resolved = resolveFieldPath(path, schema);
  return 'keys' in resolved ? resolved.keys : undefined;
};

describe('a rule fieldPath, as the API server reads it (TestValidateFieldPath)', () => {
  it.each([
    ['.a', ['a']],
    ["['\\'foo\\'bar']", ["'foo'bar"]],
    ['.white space', ['white space']],
    ["['white space']", ['white space']],
    [".a['bbb.c']", ['a', 'bbb.c']],
    ['.foo.subAdd', ['foo', 'subAdd']],
    [".foo['subAdd']", ['foo', 'subAdd']],
    [".a.foo's", ['a', "foo's"]],
    [".a['foo\\'s']", ['a', "foo's"]],
    [".a['test\\a']", ['a', 'test\x07']],
    ['.a.bbb.34', ['a', 'bbb', '34']],
    [".a.bbb['34']", ['a', 'bbb', '34']],
    ['.list', ['list']],
  ])('accepts %s', (path, expected) => {
    expect(keys(path)).toEqual(expected);
  });

  it.each([
    [".\\'foo\\'bar", 'an unquoted name is taken as written'],
    ['. a', 'a space is part of the name'],
    ['.a.bb[b', 'a "[" ends a name'],
    [".a['bbb.c'", 'an unclosed bracket'],
    ['.', 'a path that ends after "."'],
    ['.a.foo', 'a field the object does not declare'],
    ['.a.bbb[0]', 'an index into an object'],
    ['.list[0]', 'a list index'],
    ['.list. a', 'a field of a list'],
    [".list['a']", 'a key of a list'],
    ['a', 'no leading "."'],
    ['.c', 'a field the root does not declare'],
    ['.a..b', 'two dots'],
    ['.list.a-b.34', 'a field of the items of a list'],
    [".a['\\q']", 'an unknown escape'],
  ])('refuses %s: %s', (path) => {
    expect(keys(path)).toBeUndefined();
  });
});
