import { describe, expect, it } from 'vitest';
import {
  addressesItems,
  evaluateTemplate,
  formatValue,
  JsonPathError,
  JsonPathSyntaxError,
  parseTemplate,
} from '../../../src/loaders/kubernetes/jsonpath.js';

/** A document shaped like the one on kubectl's "JSONPath Support" page, on hosts of our own. */
const hosts = {
  kind: 'List',
  items: [
    {
      kind: 'Host',
      metadata: {
        name: 'node-a',
        labels: { 'topology.example.org/zone': 'eu-1' },
      },
      status: {
        capacity: { cpu: '4' },
        ready: true,
        addresses: [{ type: 'LegacyHostIP', address: '10.0.0.1' }],
      },
    },
    {
      kind: 'Host',
      metadata: {
        name: 'node-b',
        labels: { 'topology.example.org/zone': 'eu-2' },
      },
      status: {
        capacity: { cpu: '8' },
        ready: false,
        addresses: [
          { type: 'LegacyHostIP', address: '10.0.0.2' },
          { type: 'another', address: '10.0.0.3' },
        ],
      },
    },
  ],
  users: [
    { name: 'operator', user: {} },
    { name: 'ci', user: { username: 'admin', password: 's3cret' } },
  ],
};

const run = (template: string, data: unknown = hosts, allowMissingKeys = false): string =>
  evaluateTemplate(template, data, { allowMissingKeys });

describe("kubectl's JSONPath examples", () => {
  // Ported from the table of kubernetes.io/docs/reference/kubectl/jsonpath/ (kubectl's examples).
  it.each([
    ['the current object', '{@.users[0]}', '{"name":"operator","user":{}}'],
    ['a child', '{.kind}', 'List'],
    ['a child by quoted key', "{['kind']}", 'List'],
    ['recursive descent', '{..name}', 'node-a node-b operator ci'],
    ['every element', '{.items[*].metadata.name}', 'node-a node-b'],
    ['an index', '{.items[0].metadata.name}', 'node-a'],
    [
      'an element as JSON',
      '{.items[0].status}',
      '{"addresses":[{"address":"10.0.0.1","type":"LegacyHostIP"}],"capacity":{"cpu":"4"},"ready":true}',
    ],
    ['a slice from the end', '{.items[-1:].metadata.name}', 'node-b'],
    ['a filter', '{.users[?(@.name=="ci")].user.password}', 's3cret'],
    [
      'a filter selecting an element',
      '{.items[?(@.metadata.name=="node-b")].status.capacity.cpu}',
      '8',
    ],
    ['a wildcard on a map', '{.items[0].status.capacity.*}', '4'],
    [
      'a union of paths',
      "{.items[*]['metadata.name', 'status.capacity']}",
      'node-a node-b {"cpu":"4"} {"cpu":"8"}',
    ],
    [
      'range and end',
      '{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}',
      '[node-a, {"cpu":"4"}] [node-b, {"cpu":"8"}] ',
    ],
    ['a quoted literal', '{range .items[*]}{.metadata.name}{"\\t"}{end}', 'node-a\tnode-b\t'],
    [
      'an escaped dot in a key',
      '{.items[0].metadata.labels.topology\\.example\\.org/zone}',
      'eu-1',
    ],
  ])('%s: %s', (_name, template, expected) => {
    expect(run(template)).toBe(expected);
  });
});

describe('evaluateTemplate', () => {
  // Ported from kubernetes/client-go util/jsonpath/jsonpath_test.go TestKubernetes.
  it('walks nested ranges and lists of lists', () => {
    expect(run('{.items[*].status.addresses[*].address}')).toBe('10.0.0.1 10.0.0.2 10.0.0.3');
    expect(run('{range .items[*]}{range .status.addresses[*]}{.address}, {end}{end}')).toBe(
      '10.0.0.1, 10.0.0.2, 10.0.0.3, ',
    );
    expect(run('{range .items[*]}{.metadata.name}, {end}{.kind}')).toBe('node-a, node-b, List');
    expect(
      run(
        '{range .items[*]}{.metadata.name}{":"}{range .status.addresses[*]}{.type}{","}{end}{"\\n"}{end}',
      ),
    ).toBe('node-a:LegacyHostIP,\nnode-b:LegacyHostIP,another,\n');
  });

  it('keeps text outside braces and joins several values with a space', () => {
    expect(run('hosts: {.items[*].metadata.name}!')).toBe('hosts: node-a node-b!');
    expect(run('plain text')).toBe('plain text');
    expect(run('{"{"}')).toBe('{');
  });

  it('filters by comparison, by existence and by a boolean', () => {
    const vms = {
      items: [
        { id: 'web-1', cpus: 2, gpu: 'a10' },
        { id: 'web-2', cpus: 4 },
        { id: 'db-1', cpus: 6, gpu: 'h100' },
      ],
    };
    expect(run('{.items[?(@.cpus>2)].id}', vms)).toBe('web-2 db-1');
    expect(run('{.items[?(@.cpus>=4)].id}', vms)).toBe('web-2 db-1');
    expect(run('{.items[?(@.cpus<4)].id}', vms)).toBe('web-1');
    expect(run('{.items[?(@.cpus<=4)].id}', vms)).toBe('web-1 web-2');
    expect(run('{.items[?(@.cpus!=4)].id}', vms)).toBe('web-1 db-1');
    expect(run("{.items[?(@.id=='db-1')].cpus}", vms)).toBe('6');
    expect(run('{.items[?(@.gpu)].id}', vms)).toBe('web-1 db-1');
    // A filter's path may leave out the `@`.
    expect(run('{.items[?(.cpus == 4)].id}', vms)).toBe('web-2');
    expect(run('{.items[?(@..ready==true)].metadata.name}')).toBe('node-a');
    expect(run('{[?(@<5)]}', [2, 6, 3, 7])).toBe('2 3');
  });

  it('filters with a missing key: an error, or skipped when missing keys are allowed', () => {
    const vms = {
      items: [
        { id: 'a', spec: { gpu: 'h100' } },
        { id: 'b', spec: {} },
      ],
    };
    expect(() => run('{.items[?(@.spec.gpu=="h100")].id}', vms)).toThrow('gpu is not found');
    expect(run('{.items[?(@.spec.gpu=="h100")].id}', vms, true)).toBe('a');
  });

  it('refuses to compare values of different kinds or more than one value', () => {
    expect(() => run('{[?(@.a=="1")]}', [{ a: 1 }])).toThrow('incompatible types for comparison');
    expect(() => run('{[?(@.a[*]==1)]}', [{ a: [1, 2] }])).toThrow(
      'can only compare one element at a time',
    );
  });

  // Ported from kubernetes/client-go util/jsonpath/jsonpath_test.go TestNegativeIndex and TestStep.
  it('indexes and slices like client-go, bounds included', () => {
    const disks = { disks: ['d0', 'd1', 'd2', 'd3', 'd4', 'd5'] };
    expect(run('{.disks[0]}', disks)).toBe('d0');
    expect(run('{.disks[-1]}', disks)).toBe('d5');
    expect(run('{.disks[-2:]}', disks)).toBe('d4 d5');
    expect(run('{.disks[1:3]}', disks)).toBe('d1 d2');
    expect(run('{.disks[0:-4]}', disks)).toBe('d0 d1');
    expect(run('{.disks[:4:2]}', disks)).toBe('d0 d2');
    expect(run('{.disks[1::2]}', disks)).toBe('d1 d3 d5');
    expect(run('{.disks[0:0]}', disks)).toBe('');
    expect(run('{.disks[9:9]}', disks)).toBe('');
    expect(run('{.disks[0,2]}', disks)).toBe('d0 d2');
    expect(run('{.disks[:]}', disks)).toBe('d0 d1 d2 d3 d4 d5');
    expect(() => run('{.disks[6]}', disks)).toThrow('array index out of bounds: index 6, length 6');
    expect(() => run('{.disks[-7]}', disks)).toThrow(JsonPathError);
    expect(() => run('{.disks[3:1]}', disks)).toThrow(
      'starting index 3 is greater than ending index 1',
    );
    expect(() => run('{.disks[0:6:0]}', disks)).toThrow('step must be > 0');
    expect(() => run('{.disks[0]}', { disks: { a: 1 } })).toThrow('map is not array or slice');
  });

  it('unions keys and prints maps and lists as JSON with sorted keys, null as null', () => {
    const doc = { a: { z: 1, b: [true, null] }, c: 'x', n: null };
    expect(run("{['a','c']}", doc)).toBe('{"b":[true,null],"z":1} x');
    expect(run('{.n}', doc)).toBe('null');
    expect(run('{.a.b}', doc)).toBe('[true,null]');
    expect(run('{..}', [1, 2, 3])).toBe('[1,2,3]');
    expect(run('{@}', { b: 1, a: 'x' })).toBe('{"a":"x","b":1}');
    expect(formatValue(2.5)).toBe('2.5');
  });

  it('says a missing key is not found unless missing keys are allowed', () => {
    expect(() => run('{.spec.memory}', { spec: { cpus: 2 } })).toThrow('memory is not found');
    expect(run('before-{.spec.memory}after', { spec: { cpus: 2 } }, true)).toBe('before-after');
  });

  it('never runs code: script-like text is only a syntax error or a key', () => {
    expect(() => parseTemplate('{.items[(@.length-1)]}')).toThrow(JsonPathSyntaxError);
    expect(() => parseTemplate('{constructor}')).toThrow('unrecognized identifier constructor');
    expect(run('{.constructor}', {}, true)).toBe('');
    expect(run('{.toString}', { toString: 'own' })).toBe('own');
  });
});

describe('parseTemplate', () => {
  // Ported from kubernetes/client-go util/jsonpath/parser_test.go TestFailParser.
  it.each([
    ['{.spec', 'unclosed action'],
    ['{*}', "unrecognized character in action: U+002A '*'"],
    ['{+12.3.0}', 'cannot parse number +12.3.0'],
    ['{[1}', 'unterminated array'],
    ['{[?(.cpus]}', 'unterminated filter'],
    ['{........}', 'invalid multiple recursive descent'],
    ['{.items[?(@.cpus<>2)]}', 'unrecognized filter operator <>'],
    ['{spec}', 'unrecognized identifier spec'],
    ['{.a}{end}', 'not in range, nothing to end'],
    ['{range .items[*]}{.a}', '{range} without {end}'],
    ['{.items[?(@.a==1 && @.b==2)]}', "unrecognized character in action: U+0026 '&'"],
    ['{"abc}', 'unterminated quoted string'],
    ['{.a[x]}', 'invalid array index x'],
  ])('%s: %s', (template, message) => {
    expect(() => parseTemplate(template)).toThrow(new JsonPathSyntaxError(message));
  });

  it('reads a long number, and a long run of operator characters, in time linear in their length', () => {
    // A CRD's printer column path is read from untrusted manifests: as backtracking regular
    // expressions, 60,000 digits that are no number took about 6 s, 100,000 operator
    // characters before a carriage return about 11 s; read once, each takes milliseconds.
    const digits = '1'.repeat(60_000);
    const operators = '='.repeat(100_000);
    const started = performance.now();
    expect(() => parseTemplate(`{.a[?(@.x==${digits}..)]}`)).toThrow(
      new JsonPathSyntaxError(`cannot parse number ${digits}..`),
    );
    expect(() => parseTemplate(`{.a[?(@.x${operators}\r)]}`)).toThrow(
      new JsonPathSyntaxError(`unrecognized filter operator ${operators}`),
    );
    expect(performance.now() - started).toBeLessThan(1000);
    // client-go's split: the whole run of operator characters, all but the last when nothing
    // follows; a carriage return is part of the right side, as Go's `.` takes it.
    expect(run('{[?(@.a==1)].a}', [{ a: 1 }, { a: 2 }])).toBe('1');
    expect(() => parseTemplate('{[?(@.a==)]}')).toThrow(
      new JsonPathSyntaxError('unrecognized filter operator ='),
    );
    expect(() => parseTemplate('{[?(@.a=\r)]}')).toThrow(
      new JsonPathSyntaxError('unrecognized filter operator ='),
    );
    expect(run('{[?(@.a==-1.5)].a}', [{ a: -1.5 }, { a: 2 }])).toBe('-1.5');
    expect(run('{[?(@.a<0.5)].a}', [{ a: 0.25 }, { a: 2 }])).toBe('0.25');
  });

  it('keeps parentheses and braces inside a filter quoted string', () => {
    const images = [{ os: '{[()]}' }, { os: 'linux' }];
    expect(run('{[?(@.os == "{[()]}")].os}', images)).toBe('{[()]}');
  });

  it('tells a list template (one that starts by addressing .items) from a per-object one', () => {
    expect(addressesItems(parseTemplate('{.items[*].spec.cpus}'))).toBe(true);
    expect(addressesItems(parseTemplate('{$.items[0]}'))).toBe(true);
    expect(addressesItems(parseTemplate('{range .items[*]}{.metadata.id}{"\\n"}{end}'))).toBe(true);
    expect(addressesItems(parseTemplate('ids: {.items[*].metadata.id}'))).toBe(true);
    expect(addressesItems(parseTemplate('{.spec.cpus}'))).toBe(false);
    expect(addressesItems(parseTemplate('{.spec.items}'))).toBe(false);
  });
});
