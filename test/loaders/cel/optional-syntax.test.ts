import { describe, expect, it } from 'vitest';
import { celEnvironmentFor } from '../../../src/loaders/cel/cel-environment.js';
import { toCelValue } from '../../../src/loaders/cel/cel-value.js';
import { evaluateRules } from '../../../src/loaders/cel/evaluate-rules.js';
import { NONE, Optional } from '../../../src/loaders/cel/kubernetes-library/optional.js';
import { blankOptionalMarks } from '../../../src/loaders/cel/optional-syntax.js';
import { compileExpression } from '../../../src/loaders/cel/compile-expression.js';
import { compileRules } from '../../../src/loaders/cel/rule-compiler.js';
import { runExpression } from './run-expression.js';

/**
 * cel-go's optional syntax and library (`cel.OptionalTypes()`, in the API server's environment
 * from Kubernetes 1.28): parsed by a rewrite of the source that keeps positions, type-checked,
 * and evaluated as cel-go evaluates it (`cel/library.go`, `interpreter/attributes.go`).
 */

type Schema = Record<string, unknown>;

const problems = (schema: Schema, rule: string) =>
  compileRules({ ...schema, 'x-kubernetes-validations': [{ rule }] }).problems.map(
    (p) => p.message,
  );

const object = (properties: Record<string, Schema>): Schema => ({ type: 'object', properties });

describe('the source rewrite', () => {
  it('blanks only the marks of the optional syntax, keeping every other character in place', () => {
    const source = "a.?b + m[?'k'] + [?x, y, ?z] + {?'k': v} + (c ? d : e)";
    const { text } = blankOptionalMarks(source);
    expect(text).toBe("a. b + m[ 'k'] + [ x, y,  z] + { 'k': v} + (c ? d : e)");
    expect(text.length).toBe(source.length);
  });

  it('leaves strings, raw strings, triple-quoted strings and comments alone', () => {
    const source = "'a.?b' + r'[?' + '''{?\n''' + \"\\\".?\" // x.?y\n + b'.?'";
    expect(blankOptionalMarks(source).text).toBe(source);
  });

  it('tells an index from a list after a value, a keyword and an operator', () => {
    expect(blankOptionalMarks('l[?0]').sites).toEqual([{ kind: 'index', offset: 1 }]);
    expect(blankOptionalMarks('1 in [?x]').sites).toEqual([
      { kind: 'element', offset: 5, index: 0 },
    ]);
    expect(blankOptionalMarks('f([?x], [y, ?z])').sites).toEqual([
      { kind: 'element', offset: 2, index: 0 },
      { kind: 'element', offset: 8, index: 1 },
    ]);
  });
});

describe('parsing', () => {
  it('keeps the position of a syntax error in the original source', () => {
    // The parser stops at the `+`, the 9th character of the source as written.
    const compiled = compileExpression('self.?a + )');
    expect(compiled).toEqual({ error: expect.stringMatching(/^1:9: found \+/) as unknown });
    expect(compileExpression("self.?a\n + m[?'k'] + )")).toEqual({
      error: expect.stringMatching(/^2:12: found \+/) as unknown,
    });
  });

  it('refuses the optional syntax before Kubernetes 1.28, as that API server parses without it', () => {
    expect(compileExpression('self.?a.hasValue()', undefined, celEnvironmentFor('1.27'))).toEqual({
      error: expect.any(String) as unknown,
    });
    expect(
      'program' in compileExpression('self.?a.hasValue()', undefined, celEnvironmentFor('1.28')),
    ).toBe(true);
  });

  it('refuses an optional selection inside has()', () => {
    expect(compileExpression('has(self.?a)')).toEqual({
      error: expect.stringContaining("unsupported syntax '.?'") as unknown,
    });
  });

  it('refuses optMap whose variable is not a simple identifier', () => {
    expect(compileExpression('self.?a.optMap(x.y, 1)')).toEqual({
      error: expect.stringContaining(
        'optMap() variable name must be a simple identifier',
      ) as unknown,
    });
  });
});

describe('type checking', () => {
  const schema = object({ a: object({ b: { type: 'string' } }), n: { type: 'integer' } });

  it('refuses an optional selection of a field the schema does not declare', () => {
    expect(problems(schema, 'self.?nope.hasValue()').join()).toContain("undefined field 'nope'");
    expect(problems(schema, "self.?a.?c.orValue('') == ''").join()).toContain(
      "undefined field 'c'",
    );
  });

  it('types a.?b as an optional of the field: orValue takes only the field type', () => {
    expect(problems(schema, "self.?a.?b.orValue('') == 'x'")).toEqual([]);
    expect(problems(schema, 'self.?a.?b.orValue(1) == 1').join()).toContain(
      "no matching overload for 'orValue'",
    );
    expect(problems(schema, 'self.?n == 1').join()).toContain("no matching overload for '_==_'");
  });

  it('refuses an optional list element or map entry that is certainly not an optional', () => {
    expect(problems(schema, '[?self.n].size() == 0').join()).toContain(
      "expected type 'optional_type(int)' but found 'int'",
    );
    expect(problems(schema, "{?'k': 'v'}.size() == 0").join()).toContain(
      "expected type 'optional_type(string)' but found 'string'",
    );
  });
});

describe('evaluation', () => {
  const self = { a: { b: 'x' }, m: { k: 'v' }, l: ['a', 'b'] };

  it.each([
    ['self.?a.?b.value()', 'x'],
    ['self.?z.?b.hasValue()', false],
    ['self.?a.b.value()', 'x'],
    ['self.?z.b.c.hasValue()', false],
    ["self.m[?'k'].value()", 'v'],
    ["self.?m[?'k'].value()", 'v'],
    ["self.?m['nope'].hasValue()", false],
    ['self.l[?1].value()', 'b'],
    ['self.l[?2].hasValue()', false],
    ['self.l[?-1].hasValue()', false],
    ['[1, ?optional.none(), ?optional.of(3)] == [1, 3]', true],
    ["{?'a': optional.none(), ?'b': optional.of(2), 'c': 3} == {'b': 2, 'c': 3}", true],
    ['self.?a.optMap(a, a.b + "!").value()', 'x!'],
    ['self.?z.optMap(z, z.b).hasValue()', false],
    ["self.?a.optFlatMap(a, a.?b).value() == 'x'", true],
    ['[1, 2, 3].first().value()', 1n],
    ['[1, 2, 3].last().value()', 3n],
    ['[].first().hasValue()', false],
    ['optional.unwrap([optional.of(1), optional.none(), optional.of(2)]) == [1, 2]', true],
    ['[optional.none(), optional.of(2)].unwrapOpt() == [2]', true],
    ["'a.?b' + '[?'", 'a.?b[?'],
  ])('%s is %s', (source, expected) => {
    expect(runExpression(source, self)).toEqual(expected);
  });

  it('evaluates or() and orValue() short-circuit, as cel-go does: the alternative only when empty', () => {
    expect(runExpression('optional.of(1).orValue(1 / 0)', self)).toBe(1n);
    expect(runExpression('optional.of(1).or(optional.of(1 / 0)).value()', self)).toBe(1n);
    expect(runExpression('optional.none().orValue(1 / 0)', self)).toEqual({
      error: 'division by zero',
    });
  });

  it('fails a plain selection of an absent field before the optional one', () => {
    expect(runExpression('self.z.?b.hasValue()', self)).toEqual({
      error: expect.stringContaining('z') as unknown,
    });
  });

  it('refuses a non-optional value as an optional list element or map entry at evaluation', () => {
    expect(runExpression('[?dyn(1)]', self)).toEqual({
      error: expect.stringContaining('cannot initialize optional list element') as unknown,
    });
    expect(runExpression("{?'k': dyn(1)}", self)).toEqual({
      error: expect.stringContaining('cannot initialize optional map entry') as unknown,
    });
  });

  it('selects from an optionalOldSelf as from an optional (oldSelf.x is optional)', () => {
    const schema = object({ x: { type: 'integer' } });
    const compiled = compileExpression('oldSelf.x.orValue(0)', {
      node: schema,
      root: false,
      optionalOldSelf: true,
    });
    if ('error' in compiled) throw new Error(compiled.error);
    const run = (oldSelf: unknown) => compiled.program({ self: null, oldSelf });
    expect(run(NONE)).toBe(0n);
    expect(run(new Optional(toCelValue({ x: 7 }, schema) as never))).toBe(7n);
    expect(run(new Optional(toCelValue({}, schema) as never))).toBe(0n);
  });
});

/**
 * k8s.io/apiextensions-apiserver pkg/apiserver/schema/cel/validation_test.go,
 * TestOptionalOldSelfCheckForNull (Kubernetes 1.36 development): the cases that use the
 * optional syntax. Each rule has `optionalOldSelf` and holds on a create and on an update.
 */
describe('TestOptionalOldSelfCheckForNull: the optional-syntax cases', () => {
  const cases = [
    {
      name: 'object - conditional field',
      schema: object({ foo: { type: 'string' } }),
      obj: { foo: 'bar' },
      oldObj: { foo: 'baz' },
      rule: 'self.foo != "bar" || oldSelf.?foo.orValue("baz") == "baz"',
    },
    {
      name: 'array - conditional index',
      schema: { type: 'array', items: { type: 'string' } },
      obj: [],
      oldObj: ['baz'],
      rule: 'self.size() > 0 || oldSelf[?0].orValue("baz") == "baz"',
    },
  ];
  for (const c of cases) {
    const schema = {
      ...c.schema,
      'x-kubernetes-validations': [{ rule: c.rule, optionalOldSelf: true }],
    };
    it(`${c.name}: compiles`, () => {
      expect(compileRules(schema).problems).toEqual([]);
    });
    it(`${c.name}: holds with no old value`, () => {
      expect(evaluateRules(schema, c.obj)).toEqual([]);
    });
    it(`${c.name}: holds with an old value`, () => {
      expect(evaluateRules(schema, c.obj, { previous: { value: c.oldObj } })).toEqual([]);
    });
  }

  it('the conditional-field rule fails where the old value says so (the rule is not inert)', () => {
    const schema = {
      ...object({ foo: { type: 'string' } }),
      'x-kubernetes-validations': [
        {
          rule: 'self.foo != "bar" || oldSelf.?foo.orValue("baz") == "baz"',
          optionalOldSelf: true,
        },
      ],
    };
    expect(
      evaluateRules(schema, { foo: 'bar' }, { previous: { value: { foo: 'qux' } } }).map(
        (v) => v.code,
      ),
    ).toEqual(['cel-violation']);
  });
});
