import { describe, expect, it } from 'vitest';
import { compileExpression } from '../../../src/loaders/cel/compile-expression.js';
import { runExpression } from './run-expression.js';

/** `[expression, self, expected]`: expected `true` unless given. */
type Case = [string, unknown, unknown?];

const cases = (table: Case[]) =>
  table.map(([expr, self, expected = true]) => ({ expr, self, expected }));

// Semantics learnt from k8s.io/apiserver pkg/cel/library (lists.go, regex.go, urls.go,
// quantity.go, format.go) and cel-go's strings extension; the cases are cosi's own.
const LIBRARIES: Record<string, Case[]> = {
  lists: [
    ['self.isSorted()', [1, 2, 2, 5]],
    ['self.isSorted()', ['b', 'a'], false],
    ['self.sum()', [1, 2, 3], 6n],
    ['self.sum()', [1.5, 2.5], 4],
    ['[].sum()', null, 0n],
    ['self.min()', [3, 1, 2], 1n],
    ['self.max()', ['a', 'c', 'b'], 'c'],
    ['self.indexOf(2)', [1, 2, 3, 2], 1n],
    ['self.lastIndexOf(2)', [1, 2, 3, 2], 3n],
    ['self.indexOf(9)', [1, 2], -1n],
  ],
  regex: [
    ["self.find('[0-9]+')", 'abc 123 def 456', '123'],
    ["self.find('x')", 'abc', ''],
    ["self.findAll('[0-9]+')", 'abc 123 def 456', ['123', '456']],
    ["self.findAll('[a-z]', 2)", 'abcd', ['a', 'b']],
    ["self.matches('^a+$')", 'aaaa'],
    // A pattern that backtracks for ever in a backtracking engine answers at once.
    ["self.matches('^(a+)+$')", `${'a'.repeat(5000)}!`, false],
  ],
  strings: [
    ["self.charAt(1) == 'b'", 'abc'],
    ["self.indexOf('c')", 'abcabc', 2n],
    ["self.lastIndexOf('c')", 'abcabc', 5n],
    ['self.lowerAscii()', 'ÀBC', 'Àbc'],
    ['self.upperAscii()', 'abc', 'ABC'],
    ["self.replace('a', 'o')", 'banana', 'bonono'],
    ["self.split(',')", 'a,b,c', ['a', 'b', 'c']],
    ['self.substring(1, 3)', 'abcd', 'bc'],
    ['self.trim()', '  x  ', 'x'],
    ["self.join('-')", ['a', 'b'], 'a-b'],
    ['strings.quote(self)', 'a"b', '"a\\"b"'],
  ],
  url: [
    ["url(self).getScheme() == 'https'", 'https://example.com:8443/a%20b?x=1&x=2'],
    ['url(self).getHost()', 'https://example.com:8443/path', 'example.com:8443'],
    ['url(self).getHostname()', 'https://[::1]:80/', '::1'],
    ['url(self).getPort()', 'https://example.com:8443/', '8443'],
    ['url(self).getPort()', 'https://example.com/', ''],
    ['url(self).getEscapedPath()', 'https://example.com/a%20b', '/a%20b'],
    ["url(self).getQuery()['x']", 'https://example.com/?x=1&x=2&y=3', ['1', '2']],
    ['isURL(self)', '/absolute/path'],
    ['isURL(self)', 'not a url', false],
    ['isURL(self)', 'relative/path', false],
    ["url(self).getHost() == ''", 'mailto:someone@example.com'],
  ],
  quantity: [
    ["quantity(self).isLessThan(quantity('1Gi'))", '1000Mi'],
    ["quantity(self) == quantity('1000m')", '1'],
    ["quantity(self).compareTo(quantity('1k'))", '1000', 0n],
    ["quantity(self).isGreaterThan(quantity('1G'))", '1Gi'],
    ["quantity(self).add(quantity('500m')).asApproximateFloat()", '1', 1.5],
    ['quantity(self).sub(1).asInteger()', '3', 2n],
    ['quantity(self).asInteger()', '1.5', { error: expect.stringContaining('integer') as unknown }],
    ['quantity(self).sign()', '-2e3', -1n],
    ['quantity(self).isInteger()', '2k'],
    ['quantity(self).isInteger()', '500m', false],
    ['isQuantity(self)', '12Gi'],
    ['isQuantity(self)', '12GB', false],
    ['isQuantity(self)', '1e99999999', false],
  ],
  format: [
    ['format.dns1123Label().validate(self).hasValue()', 'my-name', false],
    ['format.dns1123Label().validate(self).hasValue()', 'My_Name'],
    ['format.dns1123Subdomain().validate(self).hasValue()', 'apps.example.org', false],
    ['format.dns1035Label().validate(self).hasValue()', '1abc'],
    ['format.qualifiedName().validate(self).hasValue()', 'example.org/my-name', false],
    ['format.dns1123LabelPrefix().validate(self).hasValue()', 'web-', false],
    ['format.labelValue().validate(self).hasValue()', '', false],
    ['format.uri().validate(self).hasValue()', 'https://example.org', false],
    ['format.uuid().validate(self).hasValue()', '123e4567-e89b-12d3-a456-426614174000', false],
    ['format.uuid().validate(self).hasValue()', 'nope'],
    ['format.byte().validate(self).hasValue()', 'aGVsbG8=', false],
    ['format.date().validate(self).hasValue()', '2024-02-30'],
    ['format.datetime().validate(self).hasValue()', '2024-02-03T04:05:06Z', false],
    ['format.named(self).hasValue()', 'dns1123Label'],
    ['format.named(self).hasValue()', 'noSuchFormat', false],
    [
      "format.named('dns1123Label').value().validate(self).value()",
      'A',
      [expect.stringContaining('RFC 1123')],
    ],
    ['optional.none().orValue(self)', 'fallback', 'fallback'],
  ],
};

describe.each(Object.keys(LIBRARIES))('the Kubernetes %s library', (library) => {
  it.each(cases(LIBRARIES[library] ?? []))(
    '$expr with self = $self',
    ({ expr, self, expected }) => {
      expect(runExpression(expr, self)).toEqual(expected);
    },
  );
});

describe('field names', () => {
  it.each([
    ['self.__namespace__', { namespace: 'ns' }, 'ns'],
    ['self.x__dash__prop', { 'x-prop': 1 }, 1n],
    ['self.a__dot__b__slash__c', { 'a.b/c': true }, true],
    ['self.a__underscores__b', { a__b: 'u' }, 'u'],
    ['has(self.x__dash__prop)', { 'x-prop': 1 }, true],
    ['has(self.x__dash__prop)', {}, false],
  ])('%s reads the escaped field name', (expr, self, expected) => {
    expect(runExpression(expr, self)).toEqual(expected);
  });
});

describe('rule compilation', () => {
  it.each([
    ['an unknown function', 'self.isEven()', "undeclared reference to 'isEven'"],
    ['an unknown variable', 'slef > 1', "undeclared reference to 'slef'"],
    ['a syntax error', 'self >', 'expecting'],
  ])('refuses %s', (_, source, message) => {
    const compiled = compileExpression(source);
    expect('error' in compiled && compiled.error).toContain(message);
  });

  describe('checks the fields a rule selects against the schema, as the API server type-checks', () => {
    const replicas = { type: 'integer' };
    const node = {
      type: 'object',
      properties: {
        replicas,
        'x-prop': { type: 'string' },
        template: { type: 'object', properties: { image: { type: 'string' } } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        ports: {
          type: 'object',
          additionalProperties: { type: 'object', properties: { port: replicas } },
        },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        port: { 'x-kubernetes-int-or-string': true },
      },
    };
    it.each([
      ['self.replicas > 1', 'self.replicas'],
      ['self.template.image != ""', 'a nested field'],
      ['has(self.x__dash__prop)', 'an escaped name'],
      ["self.labels.app == 'web'", 'a map value'],
      ['self.ports.http.port > 0', 'a field of a map value'],
      ['self.replicas == oldSelf.replicas', 'oldSelf'],
      ["self.metadata.name != ''", 'metadata at a root'],
      ['self.template.all(k, k.size() > 0)', 'a comprehension variable (not checked)'],
    ])('accepts %s (%s)', (source) => {
      const compiled = compileExpression(source, { node, root: true });
      expect('error' in compiled ? compiled.error : undefined).toBeUndefined();
    });
    it.each([
      ['self.replcas > 1', "undefined field 'replcas'"],
      ['has(self.template.imag)', "undefined field 'imag'"],
      ['oldSelf.ports.http.prot == 1', "undefined field 'prot'"],
      ['self.x__dash__pro == ""', "undefined field 'x__dash__pro'"],
      // k8s.io/apiserver pkg/cel/common/schemas.go: "The CEL declaration for objects with
      // XPreserveUnknownFields does not expose unknown fields."
      ['self.extra.anything.goes', "undefined field 'anything'"],
      ['has(self.extra.anything)', "undefined field 'anything'"],
    ])('refuses %s', (source, message) => {
      const compiled = compileExpression(source, { node, root: true });
      expect('error' in compiled && compiled.error).toContain(message);
    });
    it('does not take metadata for granted below the root', () => {
      const compiled = compileExpression("self.metadata.name != ''", { node, root: false });
      expect('error' in compiled && compiled.error).toContain("undefined field 'metadata'");
    });
  });

  it.each([
    ['type(self) == string', 'a'],
    ['type(self) == int', 1],
    ['type(self) == list && type(self[0]) == map', [{}]],
    ['type(self) == null_type', null],
    ['type(type(self)) == type', true],
  ])('takes type names as values: %s', (source, self) => {
    expect(runExpression(source, self)).toBe(true);
  });

  it('knows a rule that reads oldSelf as a transition rule', () => {
    const compiled = compileExpression('self == oldSelf');
    expect('transition' in compiled && compiled.transition).toBe(true);
  });
});
