import { describe, expect, it } from 'vitest';
import { OMIT } from '../../../src/controllers/template-rendering.js';
import { compileGraphExpression } from '../../../src/loaders/kro/graph-cel.js';

/** Evaluates one expression in kro's environment, with `schema` bound. */
function run(source: string, schema: unknown = {}): unknown {
  const compiled = compileGraphExpression(source);
  if ('error' in compiled) throw new Error(compiled.error);
  const outcome = compiled.evaluate({ schema });
  if (!('value' in outcome)) throw new Error(JSON.stringify(outcome));
  return outcome.value;
}

describe("kro's CEL libraries", () => {
  // Expected values computed independently (Python hashlib, sha256sum) from kro's algorithms.
  it('random.seededString and seededInt are the functions of the SHA-256 of the seed kro uses', () => {
    expect(run("random.seededString(10, 'seed')")).toBe('qakd42wvqa');
    expect(run("random.seededInt(10, 100, 'seed')")).toBe(52);
    expect(run("random.seededString(3, 'seed')")).toBe('qak');
  });

  it('hashes to bytes that base64 encodes as Go does', () => {
    expect(run("base64.encode(hash.fnv64a('app'))")).toBe('50+nGQVqg4w=');
    expect(run("base64.encode(hash.sha256('app'))")).toBe(
      'oXLO3K5HR0thXFTVEKXYSo3qMDLpWFh0MLQTU4vj8zM=',
    );
    expect(run("base64.encode(hash.md5('app'))")).toBe('0qV9wdiD/SH7mVFpnfccxw==');
    expect(run("string(base64.decode('aGk='))")).toBe('hi');
  });

  it('marshals and unmarshals JSON', () => {
    expect(run('json.unmarshal(\'{"a": [1, "x"]}\').a[1]')).toBe('x');
    expect(run('json.marshal({"name": schema.name, "n": 2})', { name: 'app' })).toBe(
      '{"name":"app","n":2}',
    );
  });

  it('sets, inserts and removes list items, and merges maps', () => {
    expect(run('lists.setAtIndex([1, 2, 3], 1, 9)')).toEqual([1, 9, 3]);
    expect(run('lists.insertAtIndex([1, 2], 2, 3)')).toEqual([1, 2, 3]);
    expect(run('lists.removeAtIndex([1, 2, 3], 0)')).toEqual([2, 3]);
    expect(run('{"a": 1, "b": 2}.merge({"b": 3})')).toEqual({ a: 1, b: 3 });
    const outOfBounds = compileGraphExpression('lists.setAtIndex([1], 5, 0)');
    expect('error' in outOfBounds ? outOfBounds : outOfBounds.evaluate({})).toMatchObject({
      error: expect.stringContaining('out of bounds') as string,
    });
  });

  it('deep-merges maps as kro does: nested maps merged, lists and scalars replaced', () => {
    expect(run("{'a': {'x': 1}}.deepMerge({'a': {'y': 2}})")).toEqual({ a: { x: 1, y: 2 } });
    expect(run("{'a': {'x': 1}}.deepMerge({'a': {'x': 9}})")).toEqual({ a: { x: 9 } });
    expect(run("{'a': [1, 2], 'b': {'c': 1}}.deepMerge({'a': [3], 'b': 'flat'})")).toEqual({
      a: [3],
      b: 'flat',
    });
    expect(run('schema.labels.deepMerge({})', { labels: { app: 'web' } })).toEqual({
      app: 'web',
    });
  });

  it('builds a map with transformMapEntry (cel-go two-variable comprehensions)', () => {
    const labels = { labels: { app: 'web', tier: 'front' } };
    expect(run('schema.labels.transformMapEntry(k, v, {v: k})', labels)).toEqual({
      web: 'app',
      front: 'tier',
    });
    expect(
      run("schema.labels.transformMapEntry(k, v, k != 'tier', {k + '-x': v})", labels),
    ).toEqual({ 'app-x': 'web' });
    expect(run("['a', 'b'].transformMapEntry(i, v, {v: i})")).toEqual({ a: 0, b: 1 });
    // Known to the RGD's static check, which refuses an unknown function (kro: "uses unknown functions").
    for (const source of ['m.transformMapEntry(k, v, {v: k})', 'm.deepMerge({})']) {
      const compiled = compileGraphExpression(source);
      expect('unknownFunctions' in compiled && compiled.unknownFunctions).toEqual([]);
    }
    const duplicate = compileGraphExpression("['a', 'b'].transformMapEntry(i, v, {'k': v})");
    expect('error' in duplicate ? duplicate : duplicate.evaluate({})).toMatchObject({
      error: expect.stringContaining('insert failed: key k already exists') as string,
    });
  });

  it('does not take the namespaces of the functions for variables', () => {
    const compiled = compileGraphExpression('random.seededString(4, schema.metadata.uid)');
    expect('variables' in compiled && compiled.variables).toEqual(['schema']);
  });

  it('takes the optional syntax kro RGDs use: .?, [?k] and orValue', () => {
    const source =
      'schema.spec.?ingress.?host.orValue("none") + "-" + (schema.spec[?"x"].hasValue() ? "y" : "n")';
    expect(run(source, { spec: { ingress: { host: 'a.com' } } })).toBe('a.com-n');
    expect(run(source, { spec: { x: 1 } })).toBe('none-y');
  });
});

// The cases of kro's pkg/cel/library/omit_test.go (TestOmit, TestOmitInTernary), Apache-2.0.
describe("kro's omit()", () => {
  const evaluate = (source: string, x: string) => {
    const compiled = compileGraphExpression(source);
    if ('error' in compiled) throw new Error(compiled.error);
    return compiled.evaluate({ x });
  };

  it('gives the omit value, alone or from the branch of a ternary that is taken', () => {
    expect(evaluate('omit()', '')).toEqual({ value: OMIT });
    expect(evaluate('x == "" ? omit() : x', '')).toEqual({ value: OMIT });
    expect(evaluate('x == "" ? omit() : x', 'hello')).toEqual({ value: 'hello' });
    expect(evaluate('x != "" ? x : omit()', 'hello')).toEqual({ value: 'hello' });
    expect(evaluate('x != "" ? x : omit()', '')).toEqual({ value: OMIT });
  });

  it('supports no operation: arithmetic and string concatenation fail', () => {
    for (const source of ['omit() + 1', '"prefix-" + omit()', '"prefix-" + omit() + "-suffix"']) {
      expect(evaluate(source, '')).toHaveProperty('error');
    }
  });

  // omit_test.go "invalid omit operation, same-type equality": kro's omitVal.Equal is an error.
  it('cannot be compared: omit() == omit() and omit() != x are errors', () => {
    for (const source of ['omit() == omit()', 'omit() != x', 'x == "" && omit() == omit()']) {
      const outcome = evaluate(source, '');
      expect('error' in outcome ? outcome.error : outcome).toContain(
        'omit() is a field-removal sentinel and cannot be compared',
      );
    }
    // A comparison that does not start at omit() compares the other value's way.
    expect(evaluate('x == "a" ? true : omit()', 'a')).toEqual({ value: true });
  });

  it('is told apart from the variables an expression reads', () => {
    const compiled = compileGraphExpression('schema.spec.x != "" ? schema.spec.x : omit()');
    expect(compiled).toMatchObject({ variables: ['schema'], usesOmit: true });
    expect(compileGraphExpression('schema.spec.x')).toMatchObject({ usesOmit: false });
  });

  it('stays in place inside a list or map, for the renderer to remove', () => {
    expect(evaluate('[x, omit()]', 'a')).toEqual({ value: ['a', OMIT] });
    expect(evaluate('{"a": omit(), "b": x}', 'a')).toEqual({ value: { a: OMIT, b: 'a' } });
  });
});

describe('compiled RGD expressions', () => {
  it('are compiled once per source, and evaluated again whenever a variable is another value', () => {
    const source = 'schema.spec.name + "-" + string(schema.spec.size)';
    const compiled = compileGraphExpression(source);
    expect(compileGraphExpression(source)).toBe(compiled);
    if ('error' in compiled) throw new Error(compiled.error);
    const first = { spec: { name: 'a', size: 1 } };
    expect(compiled.evaluate({ schema: first })).toEqual({ value: 'a-1' });
    expect(compiled.evaluate({ schema: first })).toEqual({ value: 'a-1' });
    expect(compiled.evaluate({ schema: { spec: { name: 'b', size: 2 } } })).toEqual({
      value: 'b-2',
    });
    expect(compiled.evaluate({ schema: { spec: { name: 'b' } } })).toHaveProperty('missing');
  });

  it('give a list or map afresh each time, so that no two renders share one', () => {
    const compiled = compileGraphExpression('[schema.spec.name]');
    if ('error' in compiled) throw new Error(compiled.error);
    const scope = { schema: { spec: { name: 'a' } } };
    const first = compiled.evaluate(scope);
    const second = compiled.evaluate(scope);
    expect(second).toEqual(first);
    expect((second as { value: unknown }).value).not.toBe((first as { value: unknown }).value);
  });
});

describe('unknown functions (kro builder.go: "uses unknown functions")', () => {
  const unknown = (source: string): readonly string[] => {
    const compiled = compileGraphExpression(source);
    if ('error' in compiled) throw new Error(compiled.error);
    return compiled.unknownFunctions;
  };

  it('names a global or member function the environment does not have', () => {
    expect(unknown('foo(schema.spec.name)')).toEqual(['foo']);
    expect(unknown('schema.spec.name.shout() + bar()')).toEqual(['shout', 'bar']);
    expect(unknown('nope.fn(1)')).toEqual(['fn']);
  });

  it("knows CEL's, Kubernetes' and kro's functions, macros and operators", () => {
    for (const source of [
      'size(schema.spec.tags) > 0 && schema.spec.name.startsWith("a") ? 1 : 2',
      'schema.spec.tags.map(t, t.upperAscii()).filter(t, t != "").join(",")',
      'schema.spec.items.sortBy(i, i.name)',
      'random.seededString(4, schema.metadata.uid) + base64.encode(bytes("x"))',
      'json.marshal({"a": [1, 2][0]}) + string(duration("1h"))',
      'schema.spec.?maybe.orValue("x") + optional.of("y").value()',
      'has(schema.spec.x) ? lists.setAtIndex([1], 0, 2) : []',
      'schema.spec.x != "" ? schema.spec.x : omit()',
      'quantity("1Gi").isGreaterThan(quantity("1Mi"))',
    ]) {
      expect(unknown(source), source).toEqual([]);
    }
  });
});
