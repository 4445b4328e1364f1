import { describe, expect, it } from 'vitest';
import { evaluateRules } from '../../../src/loaders/cel/evaluate-rules.js';
import { compileRules } from '../../../src/loaders/cel/rule-compiler.js';

/**
 * Cases of k8s.io/apiextensions-apiserver pkg/apiserver/schema/cel/validation_test.go,
 * TestValidationExpressions (header: Copyright 2021 The Kubernetes Authors; the mirror's HEAD of
 * July 2026, Kubernetes 1.36 development): the sections about the CEL libraries. Each rule is
 * put at the root of the section's schema and evaluated on its object, as the Go test does;
 * `valid` rules must hold, `errors` rules must be refused (a rule that does not compile) or
 * fail (a violation or an evaluation error). The Go test's expected messages are not compared.
 */

type Schema = Record<string, unknown>;

const STRING: Schema = { type: 'string' };
const INTEGER: Schema = { type: 'integer' };
const DOUBLE: Schema = { type: 'number', format: 'double' };
const DURATION: Schema = { type: 'string', format: 'duration' };
const DATE: Schema = { type: 'string', format: 'date' };
const listOf = (items: Schema): Schema => ({ type: 'array', items });
const mapOf = (values: Schema): Schema => ({ type: 'object', additionalProperties: values });
const objectOf = (properties: Record<string, Schema>): Schema => ({ type: 'object', properties });
const objs = (...values: unknown[]) =>
  Object.fromEntries(values.map((value, i) => [`val${i + 1}`, value]));
const schemas = (...types: Schema[]): Schema =>
  objectOf(Object.fromEntries(types.map((type, i) => [`val${i + 1}`, type])));

const LIST_FUNCTIONS_OBJECT = {
  ints: [1, 2, 2, 3],
  unsortedInts: [2, 1],
  emptyInts: [],
  doubles: [1, 2, 2, 3],
  unsortedDoubles: [2, 1],
  emptyDoubles: [],
  intBackedDoubles: [1, 2, 2, 3],
  unsortedIntBackedDDoubles: [2, 1],
  emptyIntBackedDDoubles: [],
  durations: ['1s', '1m', '1m', '1h'],
  unsortedDurations: ['1m', '1s'],
  emptyDurations: [],
  strings: ['a', 'b', 'b', 'c'],
  unsortedStrings: ['b', 'a'],
  emptyStrings: [],
  dates: ['2000-01-01', '2000-02-01', '2000-02-01', '2010-01-01'],
  unsortedDates: ['2000-02-01', '2000-01-01'],
  emptyDates: [],
  objs: [
    { f1: 'a', f2: 'a' },
    { f1: 'a', f2: 'b' },
    { f1: 'a', f2: 'b' },
    { f1: 'a', f2: 'c' },
  ],
};

const LIST_FUNCTIONS_SCHEMA = objectOf({
  ...Object.fromEntries(
    (
      [
        ['Ints', INTEGER],
        ['Doubles', DOUBLE],
        ['Durations', DURATION],
        ['Strings', STRING],
        ['Dates', DATE],
      ] as const
    ).flatMap(([name, type]) => [
      [name.toLowerCase(), listOf(type)],
      [`unsorted${name}`, listOf(type)],
      [`empty${name}`, listOf(type)],
    ]),
  ),
  intBackedDoubles: listOf(DOUBLE),
  unsortedIntBackedDDoubles: listOf(DOUBLE),
  emptyIntBackedDDoubles: listOf(DOUBLE),
  objs: listOf(objectOf({ f1: STRING, f2: STRING })),
});

interface Section {
  readonly name: string;
  readonly object: unknown;
  readonly schema: Schema;
  readonly valid: readonly string[];
  readonly errors: readonly string[];
}

const SECTIONS: readonly Section[] = [
  {
    name: 'unicode strings',
    object: objs('Rook takes 👑', 'Rook takes 👑'),
    schema: schemas(STRING, STRING),
    valid: [
      "self.val1 == 'Rook takes 👑' && 'Rook takes 👑' == self.val1 && self.val1 == self.val2",
      "self.val1.startsWith('Rook')",
      "!self.val1.startsWith('knight')",
      "self.val1.contains('takes')",
      "!self.val1.contains('gives')",
      "self.val1.endsWith('👑')",
      "!self.val1.endsWith('pawn')",
      "self.val1.matches('^[^0-9]*$')",
      "!self.val1.matches('^[0-9]*$')",
      'type(self.val1) == string',
      'size(self.val1) == 12',
      "self.val1.charAt(3) == 'k'",
      "self.val1.indexOf('o') == 1",
      "self.val1.indexOf('o', 2) == 2",
      "self.val1.replace(' ', 'x') == 'Rookxtakesx👑'",
      "self.val1.replace(' ', 'x', 1) == 'Rookxtakes 👑'",
      "self.val1.split(' ') == ['Rook', 'takes', '👑']",
      "self.val1.split(' ', 2) == ['Rook', 'takes 👑']",
      "self.val1.substring(5) == 'takes 👑'",
      "self.val1.substring(0, 4) == 'Rook'",
      "self.val1.substring(4, 10).trim() == 'takes'",
      "self.val1.upperAscii() == 'ROOK TAKES 👑'",
      "self.val1.lowerAscii() == 'rook takes 👑'",
      "'%d %s %f %s %s'.format([1, 'abc', 1.0, duration('1m'), timestamp('2000-01-01T00:00:00.000Z')]) == '1 abc 1.000000 60s 2000-01-01T00:00:00Z'",
      "'%e'.format([3.14]) == '3.140000×10⁰⁰'",
      "'%o %o %o'.format([7, 8, 9]) == '7 10 11'",
      "'%b %b %b'.format([7, 8, 9]) == '111 1000 1001'",
    ],
    errors: ["self.val1.matches(')')"],
  },
  {
    name: 'ext lists version 3',
    object: objs([1, 2, 3], [1, 2, 3]),
    schema: schemas(listOf(INTEGER), listOf(INTEGER)),
    valid: [
      'lists.range(4) == [0,1,2,3]',
      'lists.range(0) == []',
      '[5,1,2,3].reverse() == [3,2,1,5]',
      '[].reverse() == []',
      '[1].reverse() == [1]',
      "['are', 'you', 'as', 'bored', 'as', 'I', 'am'].reverse() == ['am', 'I', 'as', 'bored', 'as', 'you', 'are']",
      '[false, true, true].reverse().reverse() == [false, true, true]',
      '[1,2,3,4].slice(0, 4) == [1,2,3,4]',
      '[1,2,3,4].slice(0, 0) == []',
      '[1,2,3,4].slice(1, 1) == []',
      '[1,2,3,4].slice(4, 4) == []',
      '[1,2,3,4].slice(1, 3) == [2, 3]',
      'dyn([]).flatten() == []',
      'dyn([1,2,3,4]).flatten() == [1,2,3,4]',
      '[].sort() == []',
      '[1].sort() == [1]',
      '[4, 3, 2, 1].sort() == [1, 2, 3, 4]',
      '["d", "a", "b", "c"].sort() == ["a", "b", "c", "d"]',
      '[].sortBy(e, e) == []',
      '["a"].sortBy(e, e) == ["a"]',
      '[-3, 1, -5, -2, 4].sortBy(e, -(e * e)) == [-5, 4, -3, -2, 1]',
      '[-3, 1, -5, -2, 4].map(e, e * 2).sortBy(e, -(e * e)) == [-10, 8, -6, -4, 2]',
      'lists.range(3).sortBy(e, -e) == [2, 1, 0]',
      '["a", "c", "b", "first"].sortBy(e, e == "first" ? "" : e) == ["first", "a", "b", "c"]',
      "[{'name': 'foo'}, {'name': 'bar'}, {'name': 'baz'}].sortBy(e, e.name) == [{'name': 'bar'}, {'name': 'baz'}, {'name': 'foo'}]",
      '[].distinct() == []',
      '[1].distinct() == [1]',
      '[-2, 5, -2, 1, 1, 5, -2, 1].distinct() == [-2, 5, 1]',
      "['c', 'a', 'a', 'b', 'a', 'b', 'c', 'c'].distinct() == ['c', 'a', 'b']",
      '[[1], [1], [2]].distinct() == [[1], [2]]',
      "[{'name': 'a'}, {'name': 'b'}, {'name': 'a'}].distinct() == [{'name': 'a'}, {'name': 'b'}]",
      '[[1],[2],[3,4]].flatten() == [1,2,3,4]',
    ],
    errors: [
      '[1,2,3,4].slice(3, 0) != [1,2]',
      '[1,2,3,4].slice(0, 10) != [1,2]',
      '[1,2,3,4].slice(-5, 10) != [1,2]',
      '[1,2,3,4].slice(-5, -3) != [1,2]',
      '[[1],[2],[3,4]].flatten(-1) == [1,2,3,4]',
      '["d", 3, 2, "c"].sort() == ["a", "b", "c", "d"]',
    ],
  },
  {
    name: 'string lists',
    object: objs(['a', 'b', 'c']),
    schema: schemas(listOf(STRING)),
    valid: [
      "self.val1.join('-') == 'a-b-c'",
      "['a', 'b', 'c'].join('-') == 'a-b-c'",
      "self.val1.join() == 'abc'",
      "['a', 'b', 'c'].join() == 'abc'",
    ],
    errors: [],
  },
  {
    name: 'stdlib list functions',
    object: LIST_FUNCTIONS_OBJECT,
    schema: LIST_FUNCTIONS_SCHEMA,
    valid: [
      'self.ints.sum() == 8',
      'self.ints.min() == 1',
      'self.ints.max() == 3',
      'self.emptyInts.sum() == 0',
      'self.ints.isSorted()',
      'self.emptyInts.isSorted()',
      'self.unsortedInts.isSorted() == false',
      'self.ints.indexOf(2) == 1',
      'self.ints.lastIndexOf(2) == 2',
      'self.ints.indexOf(10) == -1',
      'self.ints.lastIndexOf(10) == -1',
      'self.doubles.sum() == 8.0',
      'self.doubles.min() == 1.0',
      'self.doubles.max() == 3.0',
      'self.emptyDoubles.sum() == 0.0',
      'self.doubles.isSorted()',
      'self.emptyDoubles.isSorted()',
      'self.unsortedDoubles.isSorted() == false',
      'self.doubles.indexOf(2.0) == 1',
      'self.doubles.lastIndexOf(2.0) == 2',
      'self.doubles.indexOf(10.0) == -1',
      'self.doubles.lastIndexOf(10.0) == -1',
      'self.intBackedDoubles.sum() == 8.0',
      'self.intBackedDoubles.min() == 1.0',
      'self.intBackedDoubles.max() == 3.0',
      'self.emptyIntBackedDDoubles.sum() == 0.0',
      'self.intBackedDoubles.isSorted()',
      'self.emptyDoubles.isSorted()',
      'self.unsortedIntBackedDDoubles.isSorted() == false',
      'self.intBackedDoubles.indexOf(2.0) == 1',
      'self.intBackedDoubles.lastIndexOf(2.0) == 2',
      'self.intBackedDoubles.indexOf(10.0) == -1',
      'self.intBackedDoubles.lastIndexOf(10.0) == -1',
      "self.durations.sum() == duration('1h2m1s')",
      "self.durations.min() == duration('1s')",
      "self.durations.max() == duration('1h')",
      "self.emptyDurations.sum() == duration('0')",
      'self.durations.isSorted()',
      'self.emptyDurations.isSorted()',
      'self.unsortedDurations.isSorted() == false',
      "self.durations.indexOf(duration('1m')) == 1",
      "self.durations.lastIndexOf(duration('1m')) == 2",
      "self.durations.indexOf(duration('2m')) == -1",
      "self.durations.lastIndexOf(duration('2m')) == -1",
      "self.strings.min() == 'a'",
      "self.strings.max() == 'c'",
      'self.strings.isSorted()',
      'self.emptyStrings.isSorted()',
      'self.unsortedStrings.isSorted() == false',
      "self.strings.indexOf('b') == 1",
      "self.strings.lastIndexOf('b') == 2",
      "self.strings.indexOf('x') == -1",
      "self.strings.lastIndexOf('x') == -1",
      "self.dates.min() == timestamp('2000-01-01T00:00:00.000Z')",
      "self.dates.max() == timestamp('2010-01-01T00:00:00.000Z')",
      'self.dates.isSorted()',
      'self.emptyDates.isSorted()',
      'self.unsortedDates.isSorted() == false',
      "self.dates.indexOf(timestamp('2000-02-01T00:00:00.000Z')) == 1",
      "self.dates.lastIndexOf(timestamp('2000-02-01T00:00:00.000Z')) == 2",
      "self.dates.indexOf(timestamp('2005-02-01T00:00:00.000Z')) == -1",
      "self.dates.lastIndexOf(timestamp('2005-02-01T00:00:00.000Z')) == -1",
      '[[1], [2]].indexOf([1]) == 0',
      "[{'a': 1}, {'b': 2}].lastIndexOf({'b': 2}) == 1",
      'self.objs.indexOf(self.objs[1]) == 1',
      'self.objs.lastIndexOf(self.objs[1]) == 2',
      '([0] + self.emptyInts).min() == 0',
      'dyn([]).sum() == 0',
      'dyn([1, 2]).sum() == 3',
      'dyn([1.0, 2.0]).sum() == 3.0',
      '[].sum() == 0',
    ],
    errors: [
      'self.emptyInts.min() == 1',
      'self.emptyInts.max() == 3',
      'self.emptyDoubles.min() == 1.0',
      'self.emptyDoubles.max() == 3.0',
      "self.emptyStrings.min() == 'a'",
      "self.emptyStrings.max() == 'c'",
      "['a', 'b'].sum() == 'c'",
      '[[1], [2]].min() == [1]',
      "[{'a': 1}, {'b': 2}].max() == {'b': 2}",
    ],
  },
  {
    name: 'stdlib regex functions',
    object: { str: 'this is a 123 string 456' },
    schema: objectOf({ str: STRING }),
    valid: [
      "self.str.find('[0-9]+') == '123'",
      "self.str.find('[0-9]+') != '456'",
      "self.str.find('xyz') == ''",
      "self.str.findAll('[0-9]+') == ['123', '456']",
      "self.str.findAll('[0-9]+', 0) == []",
      "self.str.findAll('[0-9]+', 1) == ['123']",
      "self.str.findAll('[0-9]+', 2) == ['123', '456']",
      "self.str.findAll('[0-9]+', 3) == ['123', '456']",
      "self.str.findAll('[0-9]+', -1) == ['123', '456']",
      "self.str.findAll('xyz') == []",
      "self.str.findAll('xyz', 1) == []",
    ],
    errors: [
      "self.str.find(')') == ''",
      "self.str.findAll(')') == []",
      "self.str.findAll(')', 1) == []",
      "self.str.matches('x++')",
    ],
  },
  {
    name: 'URL parsing',
    object: { url: 'https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor' },
    schema: objectOf({ url: STRING }),
    valid: [
      "url('/path').getScheme() == ''",
      "url('https://example.com/').getScheme() == 'https'",
      "url('https://example.com:80/').getHost() == 'example.com:80'",
      "url('https://example.com/').getHost() == 'example.com'",
      "url('https://[::1]:80/').getHost() == '[::1]:80'",
      "url('https://[::1]/').getHost() == '[::1]'",
      "url('/path').getHost() == ''",
      "url('https://example.com:80/').getHostname() == 'example.com'",
      "url('https://127.0.0.1/').getHostname() == '127.0.0.1'",
      "url('https://[::1]/').getHostname() == '::1'",
      "url('/path').getHostname() == ''",
      "url('https://example.com:80/').getPort() == '80'",
      "url('https://example.com/').getPort() == ''",
      "url('/path').getPort() == ''",
      "url('https://example.com/path').getEscapedPath() == '/path'",
      "url('https://example.com/with space/').getEscapedPath() == '/with%20space/'",
      "url('https://example.com').getEscapedPath() == ''",
      "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == { 'k1': ['a'], 'k2': ['b', 'c']}",
      "url('https://example.com/path?key with spaces=value with spaces').getQuery() == { 'key with spaces': ['value with spaces']}",
      "url('https://example.com/path?').getQuery() == {}",
      "url('https://example.com/path').getQuery() == {}",
      "url(self.url).getScheme() == 'https'",
      "url(self.url).getHost() == 'kubernetes.io:80'",
      "url(self.url).getHostname() == 'kubernetes.io'",
      "url(self.url).getPort() == '80'",
      "url(self.url).getEscapedPath() == '/docs/home'",
      "url(self.url).getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}",
      "isURL('https://user:pass@example.com:80/path?query=val#fragment')",
      "isURL('/path') == true",
      "isURL('https://a:b:c/') == false",
      "isURL('../relative-path') == false",
    ],
    errors: [],
  },
  {
    name: 'optionals',
    object: { presentObj: { presentStr: 'value' }, m: { k: 'v' }, l: ['a'] },
    schema: objectOf({
      presentObj: objectOf({ presentStr: STRING }),
      absentObj: objectOf({ absentStr: STRING }),
      m: mapOf(STRING),
      l: listOf(STRING),
    }),
    valid: [
      "self.?presentObj.?presentStr == optional.of('value')",
      "self.presentObj.?presentStr == optional.of('value')",
      "self.presentObj.?presentStr.or(optional.of('nope')) == optional.of('value')",
      "self.presentObj.?presentStr.orValue('') == 'value'",
      'self.presentObj.?presentStr.hasValue() == true',
      "self.presentObj.?presentStr.optMap(v, v == 'value').hasValue()",
      'self.?absentObj.?absentStr == optional.none()',
      "self.?absentObj.?absentStr.or(optional.of('nope')) == optional.of('nope')",
      "self.?absentObj.?absentStr.orValue('nope') == 'nope'",
      'self.?absentObj.?absentStr.hasValue() == false',
      "self.?absentObj.?absentStr.optMap(v, v == 'value').hasValue() == false",
      "self.m[?'k'] == optional.of('v')",
      "self.m[?'k'].or(optional.of('nope')) == optional.of('v')",
      "self.m[?'k'].orValue('') == 'v'",
      "self.m[?'k'].hasValue() == true",
      "self.m[?'k'].optMap(v, v == 'v').hasValue()",
      "self.m[?'x'] == optional.none()",
      "self.m[?'x'].or(optional.of('nope')) == optional.of('nope')",
      "self.m[?'x'].orValue('nope') == 'nope'",
      "self.m[?'x'].hasValue() == false",
      "self.m[?'x'].hasValue() == false",
      "self.l[?0] == optional.of('a')",
      'self.l[?1] == optional.none()',
      "self.l[?0].orValue('') == 'a'",
      'self.l[?0].hasValue() == true',
      "self.l[?0].optMap(v, v == 'a').hasValue()",
      'self.l[?1] == optional.none()',
      "self.l[?1].or(optional.of('nope')) == optional.of('nope')",
      "self.l[?1].orValue('nope') == 'nope'",
      'self.l[?1].hasValue() == false',
      'self.l[?1].hasValue() == false',
      'optional.ofNonZeroValue(1).hasValue()',
      'optional.ofNonZeroValue(uint(1)).hasValue()',
      'optional.ofNonZeroValue(1.1).hasValue()',
      "optional.ofNonZeroValue('a').hasValue()",
      'optional.ofNonZeroValue(true).hasValue()',
      "optional.ofNonZeroValue(['a']).hasValue()",
      "optional.ofNonZeroValue({'k': 'v'}).hasValue()",
      "optional.ofNonZeroValue(timestamp('2011-08-18T00:00:00.000+01:00')).hasValue()",
      "optional.ofNonZeroValue(duration('19h3m37s10ms')).hasValue()",
      'optional.ofNonZeroValue(null) == optional.none()',
      'optional.ofNonZeroValue(0) == optional.none()',
      'optional.ofNonZeroValue(uint(0)) == optional.none()',
      'optional.ofNonZeroValue(0.0) == optional.none()',
      "optional.ofNonZeroValue('') == optional.none()",
      'optional.ofNonZeroValue(false) == optional.none()',
      'optional.ofNonZeroValue([]) == optional.none()',
      'optional.ofNonZeroValue({}) == optional.none()',
      "optional.ofNonZeroValue(timestamp('0001-01-01T00:00:00.000+00:00')) == optional.none()",
      "optional.ofNonZeroValue(duration('0s')) == optional.none()",
      "{?'k': optional.none(), 'k2': 'v2'} == {'k2': 'v2'}",
      "{?'k': optional.of('v'), 'k2': 'v2'} == {'k': 'v', 'k2': 'v2'}",
      "['a', ?optional.none(), 'c'] == ['a', 'c']",
      "['a', ?optional.of('v'), 'c'] == ['a', 'v', 'c']",
    ],
    errors: ['self.absentObj.?absentStr == optional.none()'],
  },
  {
    name: 'quantity',
    object: objs('20', '200M'),
    schema: schemas(STRING, STRING),
    valid: [
      'isQuantity(self.val1)',
      'isQuantity(self.val2)',
      'isQuantity("20Mi")',
      'quantity(self.val2) == quantity("0.2G") && quantity("0.2G") == quantity("200M")',
      'quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")',
      'quantity(self.val1).isLessThan(quantity("100M"))',
      'quantity(self.val2).isGreaterThan(quantity("50M"))',
      'quantity(self.val2).compareTo(quantity("0.2G")) == 0',
      'quantity("50k").add(quantity(self.val1)) == quantity("50.02k")',
      'quantity("50k").sub(quantity(self.val1)) == quantity("49980")',
      'quantity(self.val1).isInteger()',
    ],
    errors: [],
  },
  {
    name: 'IP and CIDR',
    object: objs('20', '200M'),
    schema: schemas(STRING, STRING),
    valid: [
      'isIP("192.168.0.1")',
      'ip.isCanonical("127.0.0.1")',
      'ip("192.168.0.1").family() > 0',
      'ip("0.0.0.0").isUnspecified()',
      'ip("127.0.0.1").isLoopback()',
      'ip("224.0.0.1").isLinkLocalMulticast()',
      'ip("192.168.0.1").isGlobalUnicast()',
      'type(ip("192.168.0.1")) == net.IP',
      'cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))',
      'cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")',
      'cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33"))',
      'type(cidr("2001:db8::/32").ip()) == net.IP',
      "cidr('192.168.0.0/24') == cidr('192.168.0.0/24').masked()",
      "cidr('192.168.0.0/16').prefixLength() == 16",
      "cidr('::1/128').ip().family() == 6",
    ],
    errors: [],
  },
  {
    name: 'format',
    object: objs('20', '200M'),
    schema: schemas(STRING, STRING),
    valid: [
      'format.dns1123Label().validate("my-label-name") == optional.none()',
      'format.dns1123Subdomain().validate("apiextensions.k8s.io") == optional.none()',
      'format.qualifiedName().validate("apiextensions.k8s.io/v1beta1") == optional.none()',
      'format.dns1123LabelPrefix().validate("my-label-prefix-") == optional.none()',
      'format.dns1123SubdomainPrefix().validate("mysubdomain.prefix.-") == optional.none()',
      'format.dns1035LabelPrefix().validate("my-label-prefix-") == optional.none()',
      'format.uri().validate("http://example.com") == optional.none()',
      'format.uuid().validate("123e4567-e89b-12d3-a456-426614174000") == optional.none()',
      'format.byte().validate("aGVsbG8=") == optional.none()',
      'format.date().validate("2021-01-01") == optional.none()',
      'format.datetime().validate("2021-01-01T00:00:00Z") == optional.none()',
      'format.named("dns1123Label").value().validate("my-name") == optional.none()',
      "format.dns1123Label().validate(\"contains a space\").value()[0] == \"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \\'-\\', and must start and end with an alphanumeric character (e.g. \\'my-name\\',  or \\'123-abc\\', regex used for validation is \\'[a-z0-9]([-a-z0-9]*[a-z0-9])?\\')\"",
      '!format.named("unknown").hasValue()',
    ],
    errors: [],
  },
];

/**
 * `schema` with a bound on every list and string. The Go test builds its validator without the
 * static cost limits a CRD's rules get (`TestCostEstimation` and the CRD validation test check
 * those); here rules compile as a CRD's, and a library function over an unbounded list of
 * unbounded strings is over the API server's budget. The bounds are far above the test's values.
 */
function bounded(schema: Schema): Schema {
  const out: Schema = { ...schema };
  if (schema.type === 'array') out.maxItems = 64;
  if (schema.type === 'string') out.maxLength = 256;
  for (const key of ['items', 'additionalProperties'] as const) {
    const child = schema[key];
    if (typeof child === 'object' && child !== null) out[key] = bounded(child as Schema);
  }
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (properties !== undefined) {
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([key, child]) => [key, bounded(child)]),
    );
  }
  return out;
}

/** What cosi makes of a rule at the root of `schema` on `object`. */
function outcome(schema: Schema, rule: string, object: unknown): string {
  const withRule = { ...bounded(schema), 'x-kubernetes-validations': [{ rule }] };
  const problems = compileRules(withRule).problems;
  if (problems.length > 0) return `refused: ${problems.map((p) => p.message).join('; ')}`;
  const violations = evaluateRules(withRule, object);
  return violations.length === 0 ? 'holds' : `${violations[0]?.code}: ${violations[0]?.message}`;
}

describe.each(SECTIONS)('TestValidationExpressions: $name', (section) => {
  for (const rule of section.valid) {
    it(`holds: ${rule}`, () => {
      expect(outcome(section.schema, rule, section.object)).toBe('holds');
    });
  }
  for (const rule of section.errors) {
    it(`is refused or fails: ${rule}`, () => {
      expect(outcome(section.schema, rule, section.object)).not.toBe('holds');
    });
  }
});
