import { describe, expect, it } from 'vitest';
import { findConfigKey } from '../../src/loaders/config-key-site.js';

describe("a config key's place in the source", () => {
  it('is the first line that writes the key, and its column', () => {
    const source = [
      "import { defineConfig } from 'cosi';",
      '',
      'export default defineConfig({',
      "  definitions: [App], manifests: ['manifests', 3],",
      "  'kubernetesVersion': '0.1',",
      '});',
    ].join('\n');
    expect(findConfigKey(source, 'definitions')).toEqual({ line: 4, col: 3 });
    expect(findConfigKey(source, 'manifests')).toEqual({ line: 4, col: 23 });
    expect(findConfigKey(source, 'kubernetesVersion')).toEqual({ line: 5, col: 3 });
    expect(findConfigKey('export default { controler: [] };', 'controler')).toEqual({
      line: 1,
      col: 18,
    });
  });

  it('skips comments, strings and longer names that hold the key', () => {
    const source = [
      '/**',
      ' * manifests: the files',
      ' */',
      '// manifests: old',
      "const note = 'manifests: x'; const extraManifests = 1;",
      'export default {',
      '  myManifests: [],',
      '  manifests: [3], // manifests: here',
      '};',
    ].join('\n');
    expect(findConfigKey(source, 'manifests')).toEqual({ line: 8, col: 3 });
  });

  it('finds nothing for a shorthand or spread key', () => {
    expect(
      findConfigKey('const controllers = 1;\nexport default { controllers };', 'controllers'),
    ).toBe(undefined);
  });
});
