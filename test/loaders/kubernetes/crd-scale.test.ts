import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { readDefinitionPaths } from '../../../src/loaders/definition-paths.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import { readManifests } from '../../../src/loaders/manifest-reader.js';

/**
 * A CRD version's scale subresource (`ValidateCustomResourceDefinitionSubresources`, and
 * `ValidateScaleSpec` / `ValidateScaleStatus` on each custom resource).
 */

const load = (...files: [string, string][]) =>
  loadManifests(files.map(([p, text]) => ({ path: p, text }))).findings;
const at = (f: Finding) => [f.code, f.file, f.line, f.col, f.pointer, f.message];

const scaleCrd = (scale: string, status = '') => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.org
spec:
  group: example.org
  names:
    kind: Gadget
    plural: gadgets
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
${status}      scale:
${scale}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
`;
const PATHS =
  '        specReplicasPath: .spec.replicas\n        statusReplicasPath: .status.replicas';
let named = 0;
const gadget = (body: string) =>
  `apiVersion: example.org/v1\nkind: Gadget\nmetadata: {name: g${++named}}\n${body}\n`;

describe('the scale subresource', () => {
  it("refuses a CRD's replica paths that are not simple paths under .spec and .status", () => {
    const crd = scaleCrd(
      '        specReplicasPath: .replicas\n        statusReplicasPath: "status.r"\n        labelSelectorPath: .metadata.labels',
    );
    expect(load(['crd.yaml', crd]).map(at)).toEqual([
      [
        'invalid-definition',
        'crd.yaml',
        17,
        27,
        '/spec/versions/0/subresources/scale/specReplicasPath',
        'Invalid value: ".replicas": should be a json path under .spec',
      ],
      [
        'invalid-definition',
        'crd.yaml',
        18,
        29,
        '/spec/versions/0/subresources/scale/statusReplicasPath',
        'Invalid value: "status.r": must be a simple json path starting with .',
      ],
      [
        'invalid-definition',
        'crd.yaml',
        19,
        28,
        '/spec/versions/0/subresources/scale/labelSelectorPath',
        'Invalid value: ".metadata.labels": should be a json path under either .spec or .status',
      ],
    ]);
  });

  it('requires both replica paths', () => {
    const crd = scaleCrd('        labelSelectorPath: .status.selector');
    expect(load(['crd.yaml', crd]).map((f) => [f.pointer, f.message])).toEqual([
      ['/spec/versions/0/subresources/scale', 'Required value (specReplicasPath)'],
      ['/spec/versions/0/subresources/scale', 'Required value (statusReplicasPath)'],
    ]);
  });

  it("refuses a custom resource's replica count that is negative, past 2^31-1 or no integer", () => {
    const findings = load(
      ['crd.yaml', scaleCrd(PATHS)],
      [
        'gadgets.yaml',
        [
          gadget('spec: {replicas: -1}'),
          gadget('spec: {replicas: "3"}'),
          gadget('spec: {replicas: 3000000000}\nstatus: {replicas: 1.5}'),
          gadget('spec: [1]'),
          gadget('spec: {replicas: 2.0}\nstatus: {replicas: 0}'),
        ].join('---\n'),
      ],
    );
    expect(findings.map(at)).toEqual([
      [
        'schema-violation',
        'gadgets.yaml',
        4,
        18,
        '/spec/replicas',
        'Invalid value: -1: should be a non-negative integer',
      ],
      [
        'schema-violation',
        'gadgets.yaml',
        9,
        18,
        '/spec/replicas',
        'Invalid value: 0: .spec.replicas accessor error: 3 is of the type string, expected int64',
      ],
      [
        'schema-violation',
        'gadgets.yaml',
        14,
        18,
        '/spec/replicas',
        'Invalid value: 3000000000: should be less than or equal to 2147483647',
      ],
      [
        'schema-violation',
        'gadgets.yaml',
        15,
        20,
        '/status/replicas',
        'Invalid value: 0: .status.replicas accessor error: 1.5 is of the type float64, expected int64',
      ],
      [
        'schema-violation',
        'gadgets.yaml',
        20,
        7,
        '/spec',
        'Invalid value: "array": spec in body must be of type object: "array"',
      ],
      [
        'schema-violation',
        'gadgets.yaml',
        20,
        7,
        '/spec',
        'Invalid value: 0: .spec.replicas accessor error: [1] is of the type []interface {}, expected map[string]interface{}',
      ],
    ]);
  });

  it('leaves out the status the status subresource drops', () => {
    const crd = scaleCrd(PATHS, '      status: {}\n');
    const findings = load(['crd.yaml', crd], ['g.yaml', gadget('status: {replicas: -5}')]);
    expect(findings.map((f) => f.code)).toEqual(['ignored-status']);
  });

  it('checks the replica count of a --definitions CRD, read when its kind is used', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-scale-'));
    try {
      await mkdir(path.join(dir, 'crds'));
      await mkdir(path.join(dir, 'manifests'));
      await writeFile(path.join(dir, 'crds', 'gadgets.yaml'), scaleCrd(PATHS));
      await writeFile(path.join(dir, 'manifests', 'g.yaml'), gadget('spec: {replicas: -1}'));
      const { definitions } = await readDefinitionPaths(['crds'], { cwd: dir });
      const used = await readManifests(['manifests'], { cwd: dir, definitions });
      expect(used.findings.map((f) => [f.code, f.line, f.message])).toEqual([
        ['schema-violation', 4, 'Invalid value: -1: should be a non-negative integer'],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
