import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

const configMap = (name: string, namespace: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace:${namespace}\n`;

describe('an empty metadata.namespace (kubectl sends the object to its namespace, default)', () => {
  it('takes an empty or null namespace as none: the object is in default', () => {
    const { findings, resources } = loadManifests([
      { path: 'cm.yaml', text: [configMap('a', ''), configMap('b', ' ""')].join('---\n') },
    ]);
    expect(findings).toEqual([]);
    expect(resources.map((r) => r.resource.metadata.namespace)).toEqual(['default', 'default']);
  });

  it('reads an empty namespace and default as one: the same name twice is one object twice', () => {
    const { findings } = loadManifests([
      { path: 'cm.yaml', text: [configMap('a', ' ""'), configMap('a', ' default')].join('---\n') },
    ]);
    expect(findings.map((f) => [f.code, f.line])).toEqual([['duplicate-resource', 10]]);
  });

  it('still refuses a namespace that is no DNS label', () => {
    const { findings } = loadManifests([{ path: 'cm.yaml', text: configMap('a', ' Bad_ns') }]);
    expect(findings.map((f) => [f.code, f.line, f.col, f.message])).toEqual([
      [
        'invalid-namespace',
        5,
        14,
        "Invalid value: \"Bad_ns\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    ]);
  });
});
