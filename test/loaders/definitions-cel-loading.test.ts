import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isCelRuleEngineLoaded } from '../../dist/loaders/cel/cel-rules.js';
import { readDefinitionPaths } from '../../dist/loaders/definition-paths.js';
import { readManifests } from '../../dist/loaders/manifest-reader.js';

/**
 * Issue 29 point 6, only what is used is compiled: the CEL rules of a `--definitions` CRD are
 * compiled (and CEL, the largest part of the loaders, loaded) only when a manifest uses its kind.
 * Each test file runs in its own module graph, so the engine starts unloaded here. The built
 * modules are tested (`npm run build` first): the engine is then required synchronously, as in
 * the CLI, which vitest's transform of the sources cannot do.
 */

const GADGET_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: gadgets.example.org }
spec:
  group: example.org
  names: { plural: gadgets, kind: Gadget }
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
              type: object
              properties:
                size: { type: integer }
              x-kubernetes-validations:
                - rule: self.size > 0
                  message: size must be positive
`;

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-definitions-cel-'));
  await mkdir(path.join(dir, 'crds'));
  await mkdir(path.join(dir, 'manifests'));
  await writeFile(path.join(dir, 'crds', 'gadgets.yaml'), GADGET_CRD);
  await writeFile(
    path.join(dir, 'manifests', 'config.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: settings, namespace: default }\ndata: { a: b }\n',
  );
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the CEL rules of --definitions CRDs', () => {
  it('are neither compiled nor is CEL loaded while no manifest uses their kind, and are once one does', async () => {
    const { definitions, findings } = await readDefinitionPaths(['crds'], { cwd: dir });
    expect(findings).toEqual([]);
    expect(definitions.map((d) => d.type)).toEqual(['Gadgets.example.org']);

    const unused = await readManifests(['manifests'], { cwd: dir, definitions });
    expect(unused.findings).toEqual([]);
    expect(isCelRuleEngineLoaded()).toBe(false);

    await writeFile(
      path.join(dir, 'manifests', 'gadget.yaml'),
      'apiVersion: example.org/v1\nkind: Gadget\nmetadata: { name: g, namespace: default }\nspec: { size: 0 }\n',
    );
    const used = await readManifests(['manifests'], { cwd: dir, definitions });
    expect(used.findings.map((f) => [f.code, f.message])).toEqual([
      ['cel-violation', 'Invalid value: size must be positive'],
    ]);
    expect(isCelRuleEngineLoaded()).toBe(true);
  });
});
