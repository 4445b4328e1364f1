/**
 * Keys that name what every JavaScript object inherits (`constructor`, `toString`, `__proto__`)
 * are plain keys in a manifest, as they are to the API server: read, validated and kept as
 * written, and never anything an object inherits.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { loadManifests } from '../../src/loaders/load-manifests.js';

/** A CRD of kind Gadget whose spec's schema is `spec` (YAML, indented for its place). */
const gadgetCrd = (spec: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: gadgets.example.com }
spec:
  group: example.com
  names: { kind: Gadget, plural: gadgets }
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
${spec}
`;

const gadget = (name: string, spec: string) =>
  `apiVersion: example.com/v1\nkind: Gadget\nmetadata: { name: ${name}, namespace: default }\n${spec}`;

const load = (...texts: string[]) => {
  const { resources, findings } = loadManifests(
    texts.map((text, i) => ({ path: `m${i}.yaml`, text })),
  );
  return {
    specs: resources.map((r): unknown[] => [
      r.resource.metadata.id,
      (r.resource.spec as { spec?: unknown }).spec,
    ]),
    findings: findings.map((f) => `${f.file}:${f.line} ${f.code} ${f.message} (${f.pointer})`),
  };
};

describe('keys named as what objects inherit', () => {
  it('are not fields of an object that does not have them (constructor, toString)', () => {
    const crd = gadgetCrd(`            type: object
            default: {}
            properties:
              constructor: { type: string, default: made }
              toString: { type: integer }`);
    const { specs, findings } = load(
      crd,
      gadget('a', ''),
      gadget('b', 'spec: { toString: 2 }'),
      gadget('c', 'spec: { toString: two }'),
    );
    expect(findings).toEqual([
      'm3.yaml:4 schema-violation Invalid value: "string": spec.toString in body must be of type integer: "string" (/spec/toString)',
    ]);
    expect(specs).toEqual([
      ['a', { constructor: 'made' }],
      ['b', { constructor: 'made', toString: 2 }],
    ]);
  });

  it('take __proto__ as a plain key, kept and printed as written, never as a prototype', async () => {
    const configMap = `apiVersion: v1
kind: ConfigMap
metadata: { name: protos, namespace: default }
data: { __proto__: one, constructor: two, prototype: three }
`;
    const crd = gadgetCrd(`            type: object
            x-kubernetes-preserve-unknown-fields: true
            properties:
              __proto__:
                type: object
                default: { polluted: from-default }
                properties: { polluted: { type: string } }`);
    const objects = [
      configMap,
      crd,
      gadget('a', 'spec: {}'),
      gadget('b', 'spec: { __proto__: { polluted: written }, deep: [{ __proto__: { x: 1 } }] }'),
    ];
    const { specs, findings } = load(...objects);
    expect(findings).toEqual([]);
    expect(specs).toEqual([
      ['protos', undefined],
      ['a', JSON.parse('{"__proto__": {"polluted": "from-default"}}')],
      [
        'b',
        JSON.parse('{"__proto__": {"polluted": "written"}, "deep": [{"__proto__": {"x": 1}}]}'),
      ],
    ]);
    const specOf = (id: string) => specs.find(([name]) => name === id)?.[1] as object;
    expect(Object.getPrototypeOf(specOf('b'))).toBe(Object.prototype);
    expect(Object.keys(specOf('a'))).toEqual(['__proto__']);

    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-proto-'));
    try {
      await writeFile(path.join(dir, 'objects.yaml'), objects.join('\n---\n'));
      const run = async (...argv: string[]) => {
        let stdout = '';
        let stderr = '';
        const code = await runCli(argv, {
          stdout: { write: (text: string) => (stdout += text) },
          stderr: { write: (text: string) => (stderr += text) },
          cwd: dir,
          env: {},
          isTTY: false,
        });
        return { code, stdout, stderr };
      };
      const applied = await run('apply', '-f', 'objects.yaml', '-o', 'yaml');
      expect(applied.stderr).toMatch(/^converged, /);
      expect(applied.code).toBe(0);
      expect(applied.stdout).toContain('data:\n  __proto__: one\n  constructor: two\n');
      expect(applied.stdout).toContain('spec:\n  __proto__:\n    polluted: from-default\n');
      const got = await run('get', 'Gadget', 'b', '-f', 'objects.yaml', '-o', 'json');
      expect((JSON.parse(got.stdout) as { spec: unknown }).spec).toEqual(specOf('b'));
      expect((await run('check', '-f', 'objects.yaml')).code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    // Nothing reached Object.prototype.
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
