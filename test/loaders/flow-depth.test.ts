import { LineCounter } from 'yaml';
import { describe, expect, it } from 'vitest';
import { flowDepthPast } from '../../src/loaders/flow-depth.js';
import {
  NestingTooDeepError,
  parseYamlStream,
  SAFE_PARSE_DEPTH,
} from '../../src/loaders/yaml-source.js';

describe('flowDepthPast', () => {
  it('finds flow collections nested past a limit, placed where they went past the level reported', () => {
    expect(flowDepthPast('a: [[[1]]]', 3)).toBeUndefined();
    expect(flowDepthPast('a: [[[[1]]]]', 3)).toBe(6);
    expect(flowDepthPast('a: [[[[1]]]]', 3, 2)).toBe(5);
    // Closed collections do not add up.
    expect(flowDepthPast('[[]] [[]] {[]} [[]]', 2)).toBeUndefined();
  });

  it('does not count brackets in quoted scalars or comments', () => {
    expect(
      flowDepthPast("a: \"[[[[\\\"[[\"\nb: '[[[[''[['\n# [[[[[\nc: x #[[[[", 1),
    ).toBeUndefined();
    // A quote inside a plain scalar opens nothing.
    expect(flowDepthPast("a: it's\nb: [[[", 2)).toBe(13);
  });

  it('counts only brackets where a collection can start, not in plain scalars such as patterns', () => {
    const patterns = Array.from({ length: 50 }, () => 'pattern: ^\\[a-z[0-9]+x[y\n').join('');
    expect(flowDepthPast(patterns, 10)).toBeUndefined();
    expect(flowDepthPast('- [\n  [\n    {a: [x]}]]', 2)).toBe(12);
  });
});

describe('parseYamlStream on a large, deeply nested text', () => {
  it('refuses it before parsing, at the collection where it went past the limit', () => {
    const depth = 100_000;
    const text = `a: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
    let thrown: unknown;
    try {
      parseYamlStream(text, new LineCounter(), () => undefined);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(NestingTooDeepError);
    expect((thrown as NestingTooDeepError).offset).toBe(3 + SAFE_PARSE_DEPTH);
  });
});
