import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Finding, type FindingCode } from '../../src/loaders/finding.js';
import { parseManifest } from '../../src/loaders/parse/parse-manifest.js';

type Where = [FindingCode, number, number, string];
const where = (f: Finding): Where => [f.code, f.line, f.col, f.pointer];

const parse = (text: string, options = {}) => parseManifest(text, 'm.yaml', options);

/** Nine levels of nine aliases: a billion nodes if fully expanded. */
function billionLaughs(): string {
  const lines = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i <= 9; i++) {
    lines.push(`a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(', ')}]`);
  }
  return `${lines.join('\n')}\n`;
}

describe('parseManifest', () => {
  it('places an unclosed [ or { where it opens, not where yaml gives up on it', () => {
    const sequence = parse(
      'kind: Pod\nspec:\n  containers:\n  - name: a\n    args: [--port, "80"\n    image: nginx\n',
    ).findings;
    expect(sequence.map(where)).toEqual([['yaml-syntax', 5, 11, '']]);
    expect(sequence[0]?.message).toBe(
      'this [ is never closed: yaml reads on to line 6, column 5 without a ] (a flow sequence that goes on over lines is indented more than its key)',
    );
    const map = parse('kind: ConfigMap\nmetadata: {name: a\ndata: {}\n---\nb: 1\n').findings;
    expect(map.map(where)).toEqual([['yaml-syntax', 2, 11, '']]);
    expect(map[0]?.message).toContain('this { is never closed');
  });

  it('reads every document of a stream as plain data, skipping empty ones but counting them', () => {
    const { documents, findings } = parse('a: 1\n---\n---\n# only a comment\n---\n- b\n');
    expect(findings).toEqual([]);
    expect(documents.map((d) => [d.index, d.value, d.position])).toEqual([
      [0, { a: 1 }, { line: 1, col: 1 }],
      [3, ['b'], { line: 6, col: 1 }],
    ]);
  });

  it('reads nothing from an empty text or one of comments only', () => {
    expect(parse('')).toMatchObject({ documents: [], findings: [] });
    expect(parse('# nothing\n')).toMatchObject({ documents: [], findings: [] });
  });

  it('follows YAML 1.2 core: yes/on are strings, True is a boolean, 0777 is decimal', () => {
    const { documents } = parse('on: yes\nt: True\nn: 0777\no: 0o17\nz: ~\n');
    expect(documents[0]?.value).toEqual({ on: 'yes', t: true, n: 777, o: 15, z: null });
  });

  it('warns about YAML 1.1 booleans in values, in any case, but not when quoted, in keys or when 1.2 agrees', () => {
    const text =
      'a: yes\nb: No\nc: ON\nd: off\ne: y\nf: N\ng: tRuE\nh: "yes"\ni: True\non: 1\nj: [off]\n';
    const { documents, findings } = parse(text);
    expect(findings.map(where)).toEqual([
      ['yaml11-boolean', 1, 4, '/a'],
      ['yaml11-boolean', 2, 4, '/b'],
      ['yaml11-boolean', 3, 4, '/c'],
      ['yaml11-boolean', 4, 4, '/d'],
      ['yaml11-boolean', 5, 4, '/e'],
      ['yaml11-boolean', 6, 4, '/f'],
      ['yaml11-boolean', 7, 4, '/g'],
      ['yaml11-boolean', 11, 5, '/j/0'],
    ]);
    expect(findings.every((f) => f.severity === 'warning')).toBe(true);
    expect(documents[0]?.hasErrors).toBe(false);
    expect(documents[0]?.value).toMatchObject({ a: 'yes', i: true, on: 1 });
  });

  describe('in a Kubernetes object, scalars read as kubectl reads them (go-yaml v2, YAML 1.1)', () => {
    const object = (fields: string) => `apiVersion: v1\nkind: ConfigMap\n${fields}`;

    it('reads a leading-zero integer as an octal, and warns', () => {
      const { documents, findings } = parse(
        object('a: 0755\nb: -010\nc: 0o755\nd: 08\ne: 00\nf: "0755"\n'),
      );
      expect(documents[0]?.value).toMatchObject({
        a: 493,
        b: -8,
        c: 493,
        d: 8,
        e: 0,
        f: '0755',
      });
      expect(findings.map(where)).toEqual([
        ['yaml11-octal', 3, 4, '/a'],
        ['yaml11-octal', 4, 4, '/b'],
        ['yaml11-octal', 7, 4, '/e'],
      ]);
      expect(findings[0]?.message).toBe(
        '0755 is the octal 493 as kubectl reads it (YAML 1.1), but the decimal 755 in YAML 1.2: write 0o755 (or 493) to mean the same in both',
      );
      expect(findings.every((f) => f.severity === 'warning')).toBe(true);
    });

    it("reads go-yaml v2's boolean spellings as booleans, and warns; not quoted ones, nor others", () => {
      const truths = ['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON'];
      const falsehoods = ['n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF'];
      const fields = [...truths, ...falsehoods].map((v, i) => `k${i}: ${v}`);
      const { documents, findings } = parse(
        object(`${fields.join('\n')}\nq: "yes"\nt: !!str on\nm: yEs\nlist: [yes, off]\n`),
      );
      const value = documents[0]?.value as Record<string, unknown>;
      expect(truths.map((_, i) => value[`k${i}`])).toEqual(truths.map(() => true));
      expect(falsehoods.map((_, i) => value[`k${i + truths.length}`])).toEqual(
        falsehoods.map(() => false),
      );
      expect(value).toMatchObject({ q: 'yes', t: 'on', m: 'yEs', list: [true, false] });
      expect(findings.filter((f) => f.code === 'yaml11-boolean').map((f) => f.pointer)).toEqual([
        ...fields.map((_, i) => `/k${i}`),
        '/m',
        '/list/0',
        '/list/1',
      ]);
      expect(findings.find((f) => f.pointer === '/k2')?.message).toBe(
        'yes is the boolean true as kubectl reads it (YAML 1.1), but the string "yes" in YAML 1.2: write true, or quote it for the string',
      );
    });

    it('reads !!binary and !!timestamp as kubectl does: the bytes of the base64, the timestamp as written', () => {
      const { documents, findings } = parse(
        object(
          [
            'bin: !!binary aGVsbG8=',
            'block: !!binary |',
            '  aGVs',
            '  bG8=',
            'bytes: !!binary /w==',
            'ts: !!timestamp 2001-12-14t21:59:43.10-05:00',
            'date: !!timestamp "2024-2-29"',
            'spaced: !!timestamp 2001-12-14 21:59:43.10',
            'padding: !!binary aGVsbG8',
            'february: !!timestamp 2023-02-29',
            'zone: !!timestamp 2001-12-14 21:59:43Z',
            '',
          ].join('\n'),
        ),
      );
      expect(documents[0]?.value).toMatchObject({
        bin: 'hello',
        block: 'hello',
        bytes: '\ufffd',
        ts: '2001-12-14t21:59:43.10-05:00',
        date: '2024-2-29',
        spaced: '2001-12-14 21:59:43.10',
        padding: 'aGVsbG8',
        february: '2023-02-29',
      });
      expect(findings.map(where)).toEqual([
        ['yaml-syntax', 11, 19, '/padding'],
        ['yaml-syntax', 12, 23, '/february'],
        ['yaml-syntax', 13, 19, '/zone'],
      ]);
      expect(findings[0]?.message).toBe(
        `!!binary "aGVsbG8" is no base64: kubectl's YAML reader (go-yaml) refuses the file (!!binary value contains invalid base64 data)`,
      );
      // Outside a Kubernetes object, YAML 1.2's core schema has neither tag.
      expect(parse('a: !!binary aGk=\n').findings.map((f) => f.code)).toEqual(['unknown-tag']);
    });

    it("reads go-yaml v2's numbers that YAML 1.2 keeps as strings (1_000, 0b11), and warns", () => {
      const { documents, findings } = parse(
        object(
          'a: 1_000\nb: 0b11\nc: -0b1_0\nd: 0X1F\ne: 1_000.5\nf: "1_000"\ng: 1_x\nh: _1\ni: 99_999_999_999_999_999_999\nj: 2024-01-02\nk: .1_0\nl: ._1\n',
        ),
      );
      expect(documents[0]?.value).toMatchObject({
        a: 1000,
        b: 3,
        c: -2,
        d: 31,
        e: 1000.5,
        f: '1_000',
        g: '1_x',
        h: '_1',
        i: 1e20,
        j: '2024-01-02',
        // As gopkg.in/yaml.v2 reads them.
        k: 0.1,
        l: '._1',
      });
      expect(findings.map(where)).toEqual([
        ['yaml11-number', 3, 4, '/a'],
        ['yaml11-number', 4, 4, '/b'],
        ['yaml11-number', 5, 4, '/c'],
        ['yaml11-number', 6, 4, '/d'],
        ['yaml11-number', 7, 4, '/e'],
        ['yaml11-number', 11, 4, '/i'],
        ['yaml11-number', 13, 4, '/k'],
      ]);
      expect(findings[0]?.message).toBe(
        '1_000 is the number 1000 as kubectl reads it (YAML 1.1), but the string "1_000" in YAML 1.2: write 1000, or quote it for the string',
      );
      expect(findings.every((f) => f.severity === 'warning')).toBe(true);
      // A cosi document is YAML 1.2: the string stays, with the same warning.
      const own = parse('metadata: {type: vm, id: a}\nn: 1_000\n');
      expect(own.documents[0]?.value).toMatchObject({ n: '1_000' });
      expect(own.findings.map((f) => [f.code, f.message])).toEqual([
        [
          'yaml11-number',
          '1_000 is the string "1_000" in YAML 1.2 but the number 1000 in YAML 1.1: quote it, or write 1000',
        ],
      ]);
    });

    it('reads plain keys as sigs.k8s.io/yaml sends them: booleans, octals, go-yaml numbers, Go float32 printing', () => {
      // Each key as ghodss/yaml YAMLToJSON (go-yaml v2.4) printed it, run here.
      const keys: [string, string][] = [
        ['yes', 'true'],
        ['Off', 'false'],
        ['0755', '493'],
        ['1_000', '1000'],
        ['1e7', '1e+07'],
        ['0.00001', '1e-05'],
        ['123456789.0', '1.2345679e+08'],
        ['1234567.5', '1.2345675e+06'],
        ['16777217.0', '1.6777216e+07'],
        ['.inf', '.inf'],
        ['-.5', '-0.5'],
        ['0x1F', '31'],
        ['1.0', '1'],
        ['0.1', '0.1'],
        ['02147483', '2.147483e+06'],
        ['1e1000', '1e1000'],
      ];
      const { documents, findings } = parse(
        object(
          `data:\n${keys.map(([key], i) => `  ${key}: v${i}`).join('\n')}\n  "on": quoted\n  !!str off: tagged\n`,
        ),
      );
      const data = (documents[0]?.value as { data: Record<string, string> }).data;
      expect(data).toEqual({
        ...Object.fromEntries(keys.map(([, key], i) => [key, `v${i}`])),
        on: 'quoted',
        off: 'tagged',
      });
      expect(findings.map((f) => [f.code, f.pointer])).toEqual([
        ['yaml11-boolean', '/data/true'],
        ['yaml11-boolean', '/data/false'],
        ['yaml11-octal', '/data/493'],
        ['yaml11-number', '/data/1000'],
        ['yaml11-number', '/data/1e+07'],
        ['yaml11-number', '/data/1e-05'],
        ['yaml11-number', '/data/1.2345679e+08'],
        ['yaml11-number', '/data/1.2345675e+06'],
        ['yaml11-number', '/data/1.6777216e+07'],
        ['yaml11-number', '/data/.inf'],
        ['yaml11-number', '/data/2.147483e+06'],
        ['yaml11-number', '/data/1e1000'],
      ]);
      expect(findings[0]?.message).toBe(
        'the key yes is the boolean true as kubectl reads it (YAML 1.1), so the API server gets the key "true": quote it for the key "yes"',
      );
      // Two keys kubectl reads as one, and a null key it refuses.
      const twice = parse(object('data:\n  on: a\n  "true": b\n  ~: c\n'));
      expect(twice.findings.map((f) => [f.code, f.severity, f.pointer])).toEqual([
        ['yaml11-boolean', 'warning', '/data/true'],
        ['duplicate-key', 'error', '/data/true'],
        ['complex-key', 'error', '/data'],
      ]);
      // A cosi document keeps YAML 1.2's keys.
      const own = parse('metadata: {type: vm, id: a}\nspec: {on: 1, 0755: 2, ~: 3}\n');
      expect(own.documents[0]?.value).toMatchObject({ spec: { on: 1, '755': 2, '': 3 } });
    });

    it('keeps YAML 1.2 for a document without both an apiVersion and a kind (cosi’s own)', () => {
      for (const head of [
        'metadata: {type: vm, id: a}\n',
        'apiVersion: v1\n',
        'kind: 1\napiVersion: v1\n',
      ]) {
        const { documents } = parse(`${head}a: 0755\nb: yes\n`);
        expect(documents[0]?.value).toMatchObject({ a: 755, b: 'yes' });
      }
    });
  });

  describe('data accepted exactly as written, or refused', () => {
    it('refuses integers beyond 2^53 and numbers that overflow to infinity, but not .inf', () => {
      const { documents, findings } = parse(
        'a: 9007199254740993\nb: 1e400\nc: -.inf\nd: 9007199254740991\ne: 1e300\nf: "9007199254740993"\n',
      );
      expect(findings.map(where)).toEqual([
        ['number-out-of-range', 1, 4, '/a'],
        ['number-out-of-range', 2, 4, '/b'],
      ]);
      expect(documents[0]?.hasErrors).toBe(true);
    });

    it("takes int64's bounds in a CRD's schema (a limit, not data), but not its defaults nor other keys", () => {
      const schema = (key: string): string =>
        `spec:\n  versions:\n  - schema:\n      openAPIV3Schema:\n        properties:\n          n:\n            ${key}: 9223372036854775807\n`;
      for (const key of ['maximum', 'minimum', 'exclusiveMaximum', 'maxLength', 'maxItems']) {
        expect(parse(schema(key)).findings).toEqual([]);
      }
      expect(parse(schema('default')).findings.map(where)).toEqual([
        [
          'number-out-of-range',
          7,
          22,
          '/spec/versions/0/schema/openAPIV3Schema/properties/n/default',
        ],
      ]);
      // Outside a schema, `maximum` is data like any other key.
      expect(parse('spec:\n  maximum: 9223372036854775807\n').findings.map(where)).toEqual([
        ['number-out-of-range', 2, 12, '/spec/maximum'],
      ]);
    });

    it('refuses raw control characters anywhere, with the document they are in', () => {
      const { documents, findings } = parse('a: ok\n---\nb: "x\u0000y"\nc: \u001b[2J\n');
      expect(findings.map(where)).toEqual([
        ['control-character', 3, 6, ''],
        ['control-character', 4, 4, ''],
      ]);
      expect(documents.map((d) => d.hasErrors)).toEqual([false, true]);
      // Escaped in a double-quoted string, a control character is data.
      expect(parse('a: "x\\0y"\n').findings).toEqual([]);
    });

    it('refuses NEL, U+2028 and U+2029, line breaks to kubectl (YAML 1.1), which would hide a field in a comment', () => {
      for (const [separator, name] of [
        ['\u0085', 'next line'],
        ['\u2028', 'line separator'],
        ['\u2029', 'paragraph separator'],
      ] as const) {
        // kubectl reads `replicas: "many"` as a field; YAML 1.2 reads it as the comment's text.
        const { findings } = parse(`spec:\n  # scale it${separator}  replicas: "many"\n  ok: 1\n`);
        expect(findings.map(where)).toEqual([['control-character', 2, 13, '']]);
        expect(findings[0]?.message).toContain(
          `(${name}) is a line break to kubectl's YAML reader`,
        );
      }
      // Escaped in a double-quoted string, it is data.
      expect(parse('a: "x\\u2028y"\n').findings).toEqual([]);
    });

    it('refuses a carriage return without a line feed, with a message about line endings', () => {
      const { findings } = parse('a: 1\rb: 2\r');
      // yaml's own complaint (a mapping on "one line") comes too.
      const endings = findings.filter((f) => f.code === 'control-character');
      expect(endings.map(where)).toEqual([
        ['control-character', 1, 5, ''],
        ['control-character', 1, 10, ''],
      ]);
      expect(endings[0]?.message).toContain('line endings');
      expect(parse('a: 1\r\nb: 2\r\n').findings).toEqual([]);
    });

    it('takes a byte order mark at the start of any document, before a list too, but keeps one inside a value', () => {
      const { documents, findings } = parse(
        '\ufeff- a\n---\n\ufeffb: 2\n...\n\ufeff---\nc: "\ufeffx"\n',
      );
      expect(findings).toEqual([]);
      expect(documents.map((d) => d.value)).toEqual([['a'], { b: 2 }, { c: '\ufeffx' }]);
      expect(documents[1]?.locate('/b')).toEqual({ line: 3, col: 4 });
    });

    it('hints at indentation when a key is indented too far', () => {
      const { findings } = parse('a:\n  b: 1\n    c: 2\n');
      expect(findings[0]?.code).toBe('yaml-syntax');
      expect(findings[0]?.message).toContain('indented');
    });

    it('refuses a %YAML 1.1 directive at its line, and takes %YAML 1.2', () => {
      const refused = parse('a: 1\n...\n%YAML 1.1\n---\nb: 0777\n');
      expect(refused.findings.map(where)).toEqual([
        ['yaml-version', 3, 1, ''],
        ['yaml11-octal', 5, 4, '/b'],
      ]);
      expect(refused.documents.map((d) => d.hasErrors)).toEqual([false, true]);
      expect(parse('%YAML 1.2\n---\nb: 1\n').findings).toEqual([]);
    });

    it("refuses in a Kubernetes object's file the directives kubectl refuses: %YAML 1.2, %TAG and unknown ones", () => {
      const object = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n';
      const v12 = parse(`%YAML 1.2\n---\n${object}`);
      expect(v12.findings.map(where)).toEqual([['yaml-version', 1, 1, '']]);
      expect(v12.findings[0]?.message).toContain('kubectl');
      expect(v12.documents.map((d) => d.hasErrors)).toEqual([true]);
      const unknown = parse(`%FOO bar\n---\n${object}`);
      expect(unknown.findings.filter((f) => f.severity === 'error').map(where)).toEqual([
        ['yaml-syntax', 1, 1, ''],
      ]);
      expect(unknown.documents.map((d) => d.hasErrors)).toEqual([true]);
      // After a comment; a later document's is the end of the one before to kubectl, not read.
      expect(parse(`# c\n%YAML 1.2 # c\n---\n${object}`).findings.map(where)).toEqual([
        ['yaml-version', 2, 1, ''],
      ]);
      const second = parse(`${object}...\n%YAML 1.2\n---\n${object}`);
      expect(second.findings.map((f) => f.code)).not.toContain('yaml-version');
      // kubectl cuts the file at ---: go-yaml reads the directive without its document.
      expect(parse(`%TAG !e! tag:e.com,2000:\n---\n${object}`).findings.map(where)).toEqual([
        ['yaml-syntax', 1, 1, ''],
      ]);
      expect(parse(`# %YAML 1.2\n${object}`).findings).toEqual([]);
      // A cosi document is read as YAML 1.2 says.
      expect(parse('%YAML 1.2\n---\nmetadata: {type: vm, id: a}\nspec: {}\n').findings).toEqual([]);
    });

    it("refuses in a Kubernetes object an anchor name go-yaml's scanner refuses (&a.b), not in a cosi document", () => {
      const object = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n';
      const { findings } = parse(
        `${object}  x: &a.b "1"\n  v: *a.b\n  z: &ok_A-1 "2"\n  w: *ok_A-1\n`,
      );
      // At the anchored value.
      expect(findings.map(where)).toEqual([['yaml-syntax', 5, 11, '/data/x']]);
      expect(findings[0]?.message).toContain('go-yaml');
      expect(parse('metadata: {type: vm, id: a}\nspec: {x: &a.b 1, y: *a.b}\n').findings).toEqual(
        [],
      );
    });

    it("refuses in a Kubernetes object what go-yaml's scanner refuses: ? in a plain value inside [ ] or { }, or a : starting one, and the escape \\/", () => {
      const object = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n';
      const codes = (text: string) => parse(object + text).findings.map(where);
      expect(codes('data: {x: what?}\n')).toEqual([['yaml-syntax', 4, 11, '/data/x']]);
      expect(codes('data: {"a?b": x}\n')).toEqual([]);
      expect(codes('data: {a?b: x}\n')).toEqual([['yaml-syntax', 4, 8, '/data']]);
      expect(codes('args: [--url=/x?y, "/z?w"]\n').map((w) => w[0])).toEqual(['yaml-syntax']);
      // Outside [ ] and { }, ? is a plain value's as go-yaml reads it too, and so is a first :.
      expect(codes('data:\n  x: what?\n')).toEqual([]);
      expect(codes('args: [serve, :8080]\n')).toEqual([['yaml-syntax', 4, 15, '/args/1']]);
      expect(codes('data: {addr: :8080, b: "a:b", c: a:b}\n')).toEqual([
        ['yaml-syntax', 4, 14, '/data/addr'],
      ]);
      expect(codes('args:\n- :8080\n')).toEqual([]);
      const slash = parse(`${object}data:\n  x: "a\\/b"\n`);
      expect(slash.findings.map(where)).toEqual([['yaml-syntax', 5, 6, '/data/x']]);
      expect(slash.findings[0]?.message).toContain('found unknown escape character');
      // JSON has \/, and kubectl reads a stream that starts with { as JSON while it is JSON.
      const json =
        '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"u": "http:\\/\\/x"}}';
      expect(parse(`${json}\n`).findings).toEqual([]);
      expect(parse(`${json}\n${json.replace('"a"', '"b"')}\n`).findings).toEqual([]);
      expect(parse(`---\n${json}\n`).findings.map((f) => f.code)).toEqual(['yaml-syntax']);
      // An escaped backslash before a slash is no \/ escape.
      expect(codes('data:\n  x: "a\\\\/b"\n')).toEqual([]);
      // cosi documents are YAML 1.2.
      expect(parse('metadata: {type: vm, id: a}\nspec: {x: what?, y: "a\\/b"}\n').findings).toEqual(
        [],
      );
    });

    it('warns about YAML 1.1 octals, but not about 0o17, 0 or quoted ones', () => {
      const { findings } = parse('a: 0777\nb: 0o17\nc: 0\nd: "0777"\ne: -010\n');
      expect(findings.map(where)).toEqual([
        ['yaml11-octal', 1, 4, '/a'],
        ['yaml11-octal', 5, 4, '/e'],
      ]);
    });

    it('accepts !!float on an integer literal as that number', () => {
      const { documents, findings } = parse('a: !!float 5\nb: !!float 1.5\n');
      expect(findings).toEqual([]);
      expect(documents[0]?.value).toEqual({ a: 5, b: 1.5 });
    });

    it('merges a merge key as kubectl does: the keys written win, then earlier mappings', () => {
      const { documents, findings } = parse(
        'base: &b {x: 1, y: 2}\na: &a {x: 0, z: 0}\none:\n  <<: *b\n  y: 3\nmany:\n  <<: [*a, *b]\n  w: 1\ninline: {<<: {q: 1}, r: 2}\n"<<": 2\n',
      );
      expect(findings).toEqual([]);
      const value = documents[0]?.value as Record<string, unknown>;
      expect(value.one).toEqual({ y: 3, x: 1 });
      expect(value.many).toEqual({ w: 1, x: 0, z: 0, y: 2 });
      expect(value.inline).toEqual({ r: 2, q: 1 });
      // A quoted "<<" is a key of that name.
      expect(value['<<']).toBe(2);
    });

    it('says that a merge key takes mappings only, and merges __proto__ as a plain key', () => {
      const { documents, findings } = parse(
        'a:\n  <<: 1\nb:\n  <<: [{c: 1}, [2]]\nbad: &p {__proto__: {polluted: 1}, ok: 1}\nd:\n  <<: *p\n',
      );
      expect(findings.map(where)).toEqual([
        ['merge-key', 2, 7, '/a/<<'],
        ['merge-key', 4, 16, '/b/<<'],
      ]);
      const value = documents[0]?.value as Record<string, Record<string, unknown>>;
      expect(value.b).toEqual({ c: 1 });
      expect(value.d).toEqual(JSON.parse('{"__proto__": {"polluted": 1}, "ok": 1}'));
      expect(Object.getPrototypeOf(value.d)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe('template expressions', () => {
    it('say once that a document holding {{ ... }} is a template, and load nothing of it', () => {
      const { documents, findings } = parse(
        'kind: ConfigMap\nmetadata:\n  namespace: {{ .fluxns }}\n  labels: { a: {{ .x }} }\n---\nplain: {a: {b: 1}}\n',
      );
      expect(findings.map((f) => [f.code, f.line, f.col, f.message])).toEqual([
        [
          'template-expression',
          3,
          14,
          "this document holds template expressions ({{ .fluxns }}, and 1 more): it is a template, not a manifest; check what it renders (helm template ..., flux build ... | cosi check -f -), or leave it out with --ignore; braces that are data (Argo's {{inputs.parameters.x}}) must be quoted: unquoted, {{ starts a YAML flow mapping, which kubectl refuses too",
        ],
      ]);
      expect(documents[0]?.value).toBeUndefined();
      expect(documents[0]?.hasErrors).toBe(true);
      // Nested flow mappings with values are data.
      expect(documents[1]?.value).toEqual({ plain: { a: { b: 1 } } });
    });
  });

  describe("go-yaml's \\' escape", () => {
    it("is read as kubectl reads it in a Kubernetes object, with one warning; \\\\' and other escapes as YAML 1.2", () => {
      const text = [
        'apiVersion: v1',
        'kind: Pod',
        'spec:',
        `  command: ["sh", "-c", "echo \\'hi\\'"]`,
        `  kept: "a\\\\'b"`,
        `  folded: "it\\'s\n    two lines"`,
        '',
      ].join('\n');
      const { documents, findings } = parse(text);
      expect(findings.map((f) => [f.code, f.line, f.col])).toEqual([['yaml-warning', 4, 31]]);
      expect(findings[0]?.message).toContain('(and 2 more in this document)');
      expect(documents[0]?.value).toEqual({
        apiVersion: 'v1',
        kind: 'Pod',
        spec: { command: ['sh', '-c', "echo 'hi'"], kept: "a\\'b", folded: "it's two lines" },
      });
      // Another bad escape is still an error; so is \' in cosi's own documents (YAML 1.2).
      expect(parse('apiVersion: v1\nkind: Pod\na: "\\q"\n').findings.map((f) => f.code)).toEqual([
        'yaml-syntax',
      ]);
      expect(
        parse(`metadata: {type: vm, id: a}\nspec: "\\'"\n`).findings.map((f) => f.code),
      ).toEqual(['yaml-syntax']);
    });
  });

  it('places a misindented key at the key, not at its indentation (linkerd testdata)', () => {
    const { findings } = parse('metadata:\n    name: x\n  labels:\n    a: b\n');
    expect(findings.map((f) => [f.code, f.line, f.col, f.rule])).toEqual([
      ['yaml-syntax', 3, 3, 'BAD_INDENT'],
    ]);
  });

  describe('template syntax that breaks the YAML', () => {
    const templateFindings = (text: string) =>
      parse(text).findings.map((f) => [f.code, f.line, f.col, f.message.split(':')[0]]);

    it.each([
      [
        "Helm's control lines",
        '{{- if .Values.enabled }}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n  labels:\n    {{- include "labels" . | nindent 4 }}\n{{- end }}\n',
        1,
        1,
        '{{- if .Values.enabled }}, and 3 more',
      ],
      [
        'a Helm value inside a plain scalar',
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-cm\n',
        4,
        9,
        '{{ .Release.Name }}',
      ],
      [
        "Jinja's raw block around a docs snippet",
        '{% raw %}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels:\n    a: b\n{% endraw %}\n',
        1,
        1,
        '{% raw %}, and 1 more',
      ],
    ])(
      'are one template-expression finding for %s, not its YAML errors',
      (_name, text, line, col, written) => {
        const { documents, findings } = parse(text);
        expect(findings.map((f) => [f.code, f.line, f.col])).toEqual([
          ['template-expression', line, col],
        ]);
        expect(findings[0]?.message).toContain(`(${written}): it is a template`);
        expect(documents.every((d) => d.value === undefined && d.hasErrors)).toBe(true);
      },
    );

    it("are no template when the YAML breaks away from them: an Argo Workflow's {{inputs}} are data", () => {
      const text =
        'apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nspec:\n  args: ["{{inputs.parameters.x}}"]\n\n\n  bad: [1\n';
      expect(templateFindings(text).map(([code]) => code)).not.toContain('template-expression');
      expect(templateFindings(text)[0]?.[0]).toBe('yaml-syntax');
    });

    it("are no template when what broke the YAML is a quoted value kubectl reads (Argo's multi-line args)", () => {
      // The error lands on the quoted value's lines, which hold {{...}}; relaxed, it parses.
      const argo =
        'apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nspec:\n  args: ["\n    go test ./{{inputs.parameters.package}} &&\n    go tool cover\n  "]\n';
      expect(templateFindings(argo).map((f) => f.slice(0, 3))).toEqual([['yaml-warning', 7, 1]]);
      const quoted = 'kind: ConfigMap\ndata:\n  a: "{{x}}"\n  b: "x\n  y"\n';
      expect(templateFindings(quoted).map((f) => f.slice(0, 3))).toEqual([['yaml-warning', 5, 1]]);
    });

    it('are no template when the {{ is inside a quoted value left open on its line (kube-prometheus example)', () => {
      // A misindented key broke the YAML; the quoted value that never closes holds the last {{.
      const text = [
        'receivers:',
        '- name: slack',
        'slack_configs:',
        "- channel: '#testing'",
        '  send_resolved: true',
        `   title: '{{ template "slack.title" . }}'`,
        `    text: '{{ template "slack.text" . }}`,
        '',
        'templates: []',
        '',
      ].join('\n');
      const codes = templateFindings(text).map(([code]) => code);
      expect(codes).not.toContain('template-expression');
      expect(codes[0]).toBe('yaml-syntax');
      // Unquoted after a closed quoted string, it is still a template line.
      const helm = `apiVersion: v1\nkind: ConfigMap\ndata:\n  a: "x" {{ .Values.y }}\n  b: [1\n`;
      expect(templateFindings(helm)[0]?.[0]).toBe('template-expression');
    });

    it('leave a broken document with at most 100 YAML errors and an "and N more"', () => {
      const text = `a: [\n${Array.from({ length: 300 }, (_, i) => `  k${i}: }\n`).join('')}`;
      const { findings } = parse(text);
      expect(findings.filter((f) => f.code === 'yaml-syntax')).toHaveLength(100);
      expect(findings.at(-1)?.code).toBe('too-many-findings');
      expect(findings.at(-1)?.message).toMatch(/^and \d+ more YAML errors in this document$/);
    });
  });

  describe('prototype pollution', () => {
    it('keeps a __proto__ key as an own key, as the API server does, and never changes a prototype', () => {
      const { documents, findings } = parse('spec:\n  __proto__:\n    polluted: true\n  ok: 1\n');
      expect(findings).toEqual([]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const spec = (documents[0]?.value as { spec: Record<string, unknown> }).spec;
      expect(Object.getPrototypeOf(spec)).toBe(Object.prototype);
      expect(Object.keys(spec)).toEqual(['__proto__', 'ok']);
      expect(spec.polluted).toBeUndefined();
      expect(JSON.stringify(spec)).toBe('{"__proto__":{"polluted":true},"ok":1}');
    });

    it('keeps __proto__ in flow mappings, quoted, and inside sequences, and finds it duplicated', () => {
      const { documents, findings } = parse(
        'a: {__proto__: {polluted: 1}}\nb: ["x", {"__proto__": 1}]\nc: {__proto__: 1, "__proto__": 2}\n',
      );
      expect(findings.map(where)).toEqual([['duplicate-key', 3, 19, '/c/__proto__']]);
      expect(JSON.stringify(documents[0]?.value)).toBe(
        '{"a":{"__proto__":{"polluted":1}},"b":["x",{"__proto__":1}],"c":{"__proto__":1}}',
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('keeps constructor and prototype as plain data', () => {
      const { documents, findings } = parse(
        'constructor: {prototype: {polluted: 1}}\nprototype: 2\n',
      );
      expect(findings).toEqual([]);
      const value = documents[0]?.value as Record<string, unknown>;
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.keys(value)).toEqual(['constructor', 'prototype']);
      expect(value.constructor).toEqual({ prototype: { polluted: 1 } });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype.constructor).toBe(Object);
    });
  });

  describe('duplicate keys', () => {
    it('are reported at the second key, and the first value is kept', () => {
      const { documents, findings } = parse('a: 1\nb: 2\na: 3\n');
      expect(findings.map(where)).toEqual([['duplicate-key', 3, 1, '/a']]);
      expect(documents[0]?.value).toEqual({ a: 1, b: 2 });
    });

    it('are found as JavaScript sees keys: 1 and "1" collide', () => {
      expect(parse('1: a\n"1": b\n').findings.map(where)).toEqual([['duplicate-key', 2, 1, '/1']]);
    });
  });

  describe('aliases', () => {
    it('expand into independent copies', () => {
      const { documents, findings } = parse('base: &b {cpus: 2}\nvm: *b\n');
      expect(findings).toEqual([]);
      const value = documents[0]?.value as { base: object; vm: object };
      expect(value.vm).toEqual({ cpus: 2 });
      expect(value.vm).not.toBe(value.base);
    });

    it('stop an alias bomb at the limit, quickly and with a finding at the alias written', () => {
      const started = performance.now();
      const { documents, findings } = parse(billionLaughs());
      // Generous for a loaded machine: the bound that matters is no exponential expansion (a
      // billion nodes), which would take minutes.
      expect(performance.now() - started).toBeLessThan(20_000);
      // As go-yaml counts (keys and the document node too): more than 1,000 nodes, over 99% of
      // them made by expansions, which happens inside the fourth *a2 of a3.
      expect(findings.map(where)).toEqual([['alias-bomb', 4, 25, '/a3/3']]);
      expect(documents[0]?.value).toBeUndefined();
      expect(documents[0]?.hasErrors).toBe(true);
    });

    it('refuse from the same alias as go-yaml: 316 copies of a 150-item list pass, 317 do not', () => {
      const items = Array.from({ length: 150 }, (_, i) => `v${i}`).join(', ');
      const doc = (copies: number) =>
        `apiVersion: example.com/v1\nkind: Blob\nmetadata:\n  name: b1\nspec:\n  x: &a [${items}]\n  z: [${Array.from({ length: copies }, () => '*a').join(', ')}]\n`;
      // Checked against gopkg.in/yaml.v2 2.4 (kubectl's): "document contains excessive aliasing".
      expect(parse(doc(316)).findings).toEqual([]);
      expect(parse(doc(317)).findings.map((f) => f.code)).toEqual(['alias-bomb']);
    });

    it('refuse a long anchored string aliased past the characters a file may expand to, at the alias', () => {
      const long = 'x'.repeat(1024 * 1024);
      const aliases = (n: number) => Array.from({ length: n }, (_, i) => `  k${i}: *s`).join('\n');
      // 16 copies of 1 Mi: within the 16 Mi any file may expand to; one more is past it.
      expect(parse(`s: &s ${long}\nall:\n${aliases(15)}\n`).findings).toEqual([]);
      const { documents, findings } = parse(`s: &s ${long}\nall:\n${aliases(20)}\n`);
      expect(findings.map(where)).toEqual([['alias-bomb', 19, 8, '/all/k16']]);
      expect(documents[0]?.value).toBeUndefined();
    });

    it('bound the characters aliases expand to over the whole file, not per document', () => {
      const long = 'x'.repeat(1024 * 1024);
      const doc = `s: &s ${long}\nall: [*s, *s, *s, *s, *s]\n`;
      // Four documents of 1 Mi and five copies of it each: 16 Mi, just within four times the
      // file, after the first alias of the fourth document; its second one passes it.
      const { findings } = parse([doc, doc, doc, doc].join('---\n'));
      expect(findings.map((f) => [f.code, f.line, f.col])).toEqual([['alias-bomb', 11, 11]]);
    });

    it('read a document that reuses an anchor hundreds of times, as kubectl does', () => {
      const keys = Array.from({ length: 300 }, (_, i) => `  k${i}: *d`).join('\n');
      const { documents, findings } = parse(`d: &d {cpu: 1, memory: 2}\nall:\n${keys}\n`);
      expect(findings).toEqual([]);
      const all = (documents[0]?.value as { all: Record<string, unknown> }).all;
      expect(Object.keys(all)).toHaveLength(300);
      expect(all.k299).toEqual({ cpu: 1, memory: 2 });
    });

    it('allow as many expansions as maxAliasCount says', () => {
      const text = 'a: &a [1]\nb: [*a, *a, *a]\n';
      expect(parse(text, { maxAliasCount: 3 }).findings).toEqual([]);
      expect(parse(text, { maxAliasCount: 2 }).findings.map(where)).toEqual([
        ['alias-bomb', 2, 13, '/b/2'],
      ]);
    });

    it('report an alias inside the node it names', () => {
      expect(parse('a: &a [1, *a]\n').findings.map(where)).toEqual([
        ['recursive-alias', 1, 11, '/a/1'],
      ]);
    });

    it('report an alias without an anchor before it', () => {
      const { documents, findings } = parse('a: *later\nb: &later 1\n');
      expect(findings.map(where)).toEqual([['unknown-anchor', 1, 4, '/a']]);
      expect(documents[0]?.value).toEqual({ a: null, b: 1 });
    });

    it('report problems inside an anchor once, where the anchor stands', () => {
      const { findings } = parse('a: &a {x: yes}\nb: *a\nc: *a\n');
      expect(findings.map(where)).toEqual([['yaml11-boolean', 1, 11, '/a/x']]);
    });
  });

  it('accepts the core tags and rejects every other one', () => {
    const text =
      'a: !!str 12\nb: !!int 3\nc: !!map {x: 1}\nd: !!binary aGk=\ne: !!set {x}\nf: !custom 1\ng: !!js/function "x"\nh: !!int abc\n!k i: 1\n';
    const { documents, findings } = parse(text);
    expect(findings.map(where)).toEqual([
      ['unknown-tag', 4, 13, '/d'],
      ['unknown-tag', 5, 10, '/e'],
      ['unknown-tag', 6, 12, '/f'],
      ['unknown-tag', 7, 18, '/g'],
      ['unknown-tag', 8, 10, '/h'],
      // A tagged key: the pointer is the mapping it is in.
      ['unknown-tag', 9, 4, ''],
    ]);
    // Nothing is turned into a Buffer, a Set or a function: the data stays JSON.
    expect(documents[0]?.value).toMatchObject({ a: '12', b: 3, c: { x: 1 }, d: 'aGk=' });
  });

  it('rejects keys that are collections', () => {
    expect(parse('? [a, b]\n: c\n').findings.map(where)).toEqual([['complex-key', 1, 3, '']]);
  });

  it('reports syntax errors with yaml’s code as the rule, and keeps the other documents', () => {
    const { documents, findings } = parse('a: 1\n---\nb: [1, 2\n---\nc: 3\n');
    expect(findings.map(where)).toEqual([['yaml-syntax', 4, 1, '']]);
    expect(findings[0]?.rule).toBeTypeOf('string');
    expect(documents.map((d) => d.value)).toEqual([{ a: 1 }, undefined, { c: 3 }]);
    expect(documents.map((d) => d.hasErrors)).toEqual([false, true, false]);
  });

  it('reports yaml’s warnings as yaml-warning', () => {
    const { findings } = parse('%FOO bar\n---\na: 1\n');
    expect(findings.map((f) => [f.code, f.severity])).toEqual([['yaml-warning', 'warning']]);
  });

  it('stops at maxDepth with the pointer of the first node too deep', () => {
    const { documents, findings } = parse(`a: ${'['.repeat(50)}${']'.repeat(50)}\n`, {
      maxDepth: 10,
    });
    expect(findings.map(where)).toEqual([['nesting-too-deep', 1, 14, `/a${'/0'.repeat(10)}`]]);
    expect(documents[0]?.value).toBeUndefined();
  });

  it('refuses input nested too deeply for yaml to compose, before composing it, every time', () => {
    // yaml composes recursively: thousands of levels overflow its stack, and after that Node
    // may abort on a later parse. The depth is checked on yaml's (iterative) syntax tokens.
    for (const text of [
      `${'['.repeat(5000)}${']'.repeat(5000)}\n`,
      `${'- '.repeat(5000)}x\n`,
      `${'{a: '.repeat(5000)}1${'}'.repeat(5000)}\n`,
    ]) {
      for (let i = 0; i < 3; i++) {
        const { documents, findings } = parse(text);
        expect(documents).toEqual([]);
        expect(findings.map(where)).toEqual([['nesting-too-deep', 1, expect.any(Number), '']]);
        expect(findings[0]!.col).toBeGreaterThan(400);
      }
    }
  });

  describe('locate', () => {
    const text =
      'metadata: {type: vm, id: a}\nspec:\n  disks:\n    - size: 1\n  base: &b {x: 1}\n  copy: *b\n  empty:\n';
    const doc = parse(text).documents[0]!;

    it('finds values, and keys with part "key"', () => {
      expect(doc.locate('/metadata/id')).toEqual({ line: 1, col: 26 });
      expect(doc.locate('/spec/disks/0/size')).toEqual({ line: 4, col: 13 });
      expect(doc.locate('/spec/disks/0/size', 'key')).toEqual({ line: 4, col: 7 });
    });

    it('falls back to the nearest existing parent', () => {
      expect(doc.locate('/spec/disks/3/size')).toEqual({ line: 4, col: 5 });
      expect(doc.locate('/nothing/here')).toEqual({ line: 1, col: 1 });
    });

    it('follows aliases to the anchored node', () => {
      expect(doc.locate('/spec/copy')).toEqual({ line: 6, col: 9 });
      expect(doc.locate('/spec/copy/x')).toEqual({ line: 5, col: 16 });
    });

    it('points at the key of a key without a value', () => {
      expect(doc.locate('/spec/empty')).toMatchObject({ line: 7 });
    });

    it('unescapes ~0 and ~1 in pointers', () => {
      const d = parse('"a/b": {"c~d": 1}\n').documents[0]!;
      expect(d.locate('/a~1b/c~0d')).toEqual({ line: 1, col: 16 });
    });

    it('finds a kind and a name where a parse of the document alone would', () => {
      const stream = [
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels: {a: b}\n  name: first\n',
        '{"kind": "Secret", "metadata": {"name": "flow"}}\n',
        "'kind': Pod\nmetadata: {'name': &n quoted}\nspec: {x: *n}\n",
        // Values the first parse does not keep: an alias, and metadata itself an alias.
        'base: &m {name: shared}\nkind: *k\nmetadata: *m\n',
        'kind: &k Job\nmetadata:\n  name:\n  namespace: ns\n',
        // A repeated key: the first one, as the API server reads it.
        'kind: A\nkind: B\nmetadata: {name: one, name: two}\n',
      ].join('---\n');
      const docs = parse(stream).documents;
      const at = (pointer: string) => docs.map((d) => d.locate(pointer));
      expect(at('/kind')).toEqual([
        { line: 2, col: 7 },
        { line: 7, col: 10 },
        { line: 9, col: 9 },
        { line: 14, col: 7 },
        { line: 17, col: 10 },
        { line: 22, col: 7 },
      ]);
      expect(at('/metadata/name')).toEqual([
        { line: 5, col: 9 },
        { line: 7, col: 41 },
        { line: 10, col: 23 },
        { line: 13, col: 17 },
        { line: 19, col: 8 },
        { line: 24, col: 18 },
      ]);
      // The same places from a parse of each document alone, as any other pointer is found.
      expect(at('/metadata/name/')).toEqual(at('/metadata/name'));
    });
  });

  it('is pure: the same text gives the same result, and the module reads no files', async () => {
    const text = 'a: yes\nb: &x [1]\nc: *x\n---\n- 1\n';
    const strip = (r: ReturnType<typeof parse>) => ({
      findings: r.findings,
      documents: r.documents.map((d) => [d.index, d.position, d.value, d.hasErrors]),
    });
    expect(strip(parse(text))).toEqual(strip(parse(text)));
    for (const module of [
      'parse/parse-manifest',
      'parse/oversized-crd',
      'parse/read-yaml-document',
      'parse/yaml-build-limits',
      'parse/yaml-core-tags',
      'parse/yaml-data-builder',
      'parse/yaml-directives',
      'parse/yaml-error-findings',
      'parse/yaml-node-kinds',
      'yaml-source',
      'load-manifests',
      'collect-definitions',
      'load-resources',
      'manifest-cache',
    ]) {
      const source = await readFile(
        new URL(`../../src/loaders/${module}.ts`, import.meta.url),
        'utf8',
      );
      expect(source).not.toMatch(/from 'node:/);
    }
  });

  it('never throws, whatever the text', () => {
    const token = fc.constantFrom(
      'a',
      ':',
      ': ',
      '-',
      '- ',
      '\n',
      '  ',
      '[',
      ']',
      '{',
      '}',
      ',',
      '&a ',
      '*a',
      '!',
      '!!str ',
      '? ',
      '"',
      "'",
      '#',
      '---\n',
      '|',
      '>',
      '__proto__',
      '<<',
      '%YAML 1.1\n',
      '\t',
      'yes',
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), (parts) => {
        const result = parse(parts.join(''));
        for (const f of result.findings) {
          expect(f.line).toBeGreaterThanOrEqual(1);
          expect(f.col).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.string(), (text) => void parse(text)),
      { numRuns: 200 },
    );
  });
});

describe('parseManifest of an excerpt of a file, at its origin', () => {
  /**
   * `document` (written at column 1) as it stands at `line` and `col` of a file: the lines after
   * its first are indented to `col`. Parsed at its origin, it gives the findings and positions
   * of the file with everything before the document blanked out.
   */
  function expectPlacedAsInFile(
    document: string,
    line: number,
    col: number,
    flow: boolean,
  ): readonly Finding[] {
    const excerpt = document.split('\n').join(`\n${' '.repeat(col - 1)}`);
    const blanked = `${'\n'.repeat(line - 1)}${' '.repeat(col - 1)}${excerpt}`;
    const indent = flow ? 0 : col - 1;
    const inFile = parse(blanked);
    const placed = parse(`${' '.repeat(indent)}${excerpt}`, {
      origin: { line, col: col - indent },
    });
    expect(placed.findings).toEqual(inFile.findings);
    expect(placed.findings.length).toBeGreaterThan(0);
    expect(placed.documents.map((d) => [d.value, d.position])).toEqual(
      inFile.documents.map((d) => [d.value, d.position]),
    );
    for (const pointer of ['', '/a', '/b', '/b/c', '/b/c/1', '/metadata/annotations/other']) {
      for (const part of ['key', 'value'] as const) {
        expect(placed.documents[0]?.locate(pointer, part)).toEqual(
          inFile.documents[0]?.locate(pointer, part),
        );
      }
    }
    return placed.findings;
  }

  it('places a block mapping indented on later lines of a file as the file does', () => {
    const document = 'a: yes\nb:\n  c: [1, off]\n  c: 2\n__proto__: 1';
    expectPlacedAsInFile(document, 7, 9, false);
    expectPlacedAsInFile(document, 1, 3, false);
  });

  it('places a flow mapping far along a line, and one going on over lines, as the file does', () => {
    expectPlacedAsInFile('{"a": "yes", "b": {"c": [1, "x"], "c": 2}}', 3, 4_000, true);
    expectPlacedAsInFile('{a: yes,\n b: {c: [1, off]}}', 12, 30, true);
  });

  it('places what only kubectl reads, and its warning, as the file does', () => {
    const document = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: demo',
      '  annotations:',
      "    description: 'a value",
      "    going on'",
      '    other: "b',
      '    c"',
    ].join('\n');
    const findings = expectPlacedAsInFile(document, 5, 7, false);
    expect(findings.map((f) => [f.line, f.col, f.message])).toEqual([
      [
        11,
        1,
        'this line goes on with the value of line 10, but is not indented past its key (column 11): kubectl (go-yaml) reads it so, YAML 1.2 does not; indent it (and 1 more values in this file)',
      ],
    ]);
  });
});
