import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { readDefinitionPaths } from '../../../src/loaders/definition-paths.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import { readManifests } from '../../../src/loaders/manifest-reader.js';
import { compareKubeAwareVersions } from '../../../src/loaders/kubernetes/crd-deprecation.js';

/**
 * The warning the API server returns at a deprecated CRD version (`customresource_handler.go`,
 * `defaultDeprecationWarning`), an `api-warning` on each object at it.
 */

const load = (...files: [string, string][]) =>
  loadManifests(files.map(([p, text]) => ({ path: p, text }))).findings;
const at = (f: Finding) => [f.code, f.file, f.line, f.col, f.pointer, f.message];

const versionsCrd = (versions: string) => `apiVersion: apiextensions.k8s.io/v1
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
${versions}`;
const version = (name: string, extra = '', storage = false) =>
  `  - name: ${name}\n    served: true\n    storage: ${storage}\n${extra}    schema:\n      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}\n`;
const at2 = (name: string) =>
  `apiVersion: example.org/${name}\nkind: Gadget\nmetadata: {name: g-${name}}\n`;

describe('a deprecated CRD version', () => {
  it("warns of each object at it, in the CRD's deprecationWarning", () => {
    const crd = versionsCrd(
      version(
        'v1beta1',
        '    deprecated: true\n    deprecationWarning: "Gadget v1beta1 goes away in 2027"\n',
      ) + version('v1', '', true),
    );
    expect(
      load(['crd.yaml', crd], ['g.yaml', `${at2('v1beta1')}---\n${at2('v1')}`]).map(at),
    ).toEqual([
      ['api-warning', 'g.yaml', 1, 13, '/apiVersion', 'Gadget v1beta1 goes away in 2027'],
    ]);
  });

  it('words its own warning, naming the newest served version that is not deprecated', () => {
    const crd = versionsCrd(
      version('v1alpha1', '    deprecated: true\n') +
        version('v1beta1', '', true) +
        version('v1', '') +
        version('v2alpha1', '') +
        version('v3', '    deprecated: true\n') +
        version('v4', '').replace('served: true', 'served: false'),
    );
    const findings = load(['crd.yaml', crd], ['g.yaml', `${at2('v1alpha1')}---\n${at2('v3')}`]);
    expect(findings.map((f) => [f.line, f.message])).toEqual([
      [1, 'example.org/v1alpha1 Gadget is deprecated; use example.org/v1 Gadget'],
      [5, 'example.org/v3 Gadget is deprecated'],
    ]);
  });

  it('warns of an object at a deprecated version of a --definitions CRD', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-deprecated-'));
    try {
      await mkdir(path.join(dir, 'crds'));
      await mkdir(path.join(dir, 'manifests'));
      const crd = versionsCrd(
        version('v1beta1', '    deprecated: true\n') + version('v1', '', true),
      );
      await writeFile(path.join(dir, 'crds', 'gadgets.yaml'), crd);
      await writeFile(path.join(dir, 'manifests', 'g.yaml'), at2('v1beta1'));
      const { definitions } = await readDefinitionPaths(['crds'], { cwd: dir });
      const used = await readManifests(['manifests'], { cwd: dir, definitions });
      expect(used.findings.map((f) => [f.code, f.line, f.message])).toEqual([
        ['api-warning', 1, 'example.org/v1beta1 Gadget is deprecated; use example.org/v1 Gadget'],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('orders versions as CompareKubeAwareVersionStrings', () => {
    const sorted = ['v1beta1', 'foo', 'v2', 'v1alpha1', 'v1', 'v10', 'v1beta2', 'bar'].sort(
      (a, b) => compareKubeAwareVersions(b, a),
    );
    expect(sorted).toEqual(['v10', 'v2', 'v1', 'v1beta2', 'v1beta1', 'v1alpha1', 'bar', 'foo']);
  });
});

describe("a CRD version's deprecationWarning (validateDeprecationWarning)", () => {
  it('is set only on a deprecated version, 1 to 256 bytes, printable', () => {
    const crd = versionsCrd(
      version('v1alpha1', '    deprecated: true\n    deprecationWarning: ""\n') +
        version(
          'v1alpha2',
          `    deprecated: true\n    deprecationWarning: "${'é'.repeat(129)}"\n`,
        ) +
        version('v1beta1', '    deprecated: true\n    deprecationWarning: "tab\\there"\n') +
        version('v1', '    deprecationWarning: "not deprecated"\n', true),
    );
    // The value as written is left out: a long one is shown cut short.
    const shown = (f: Finding) => [f.pointer, f.message.replace(/^Invalid value: ".*": /, '')];
    expect(load(['crd.yaml', crd]).map(shown)).toEqual([
      ['/spec/versions/0/deprecationWarning', 'must not be an empty string'],
      ['/spec/versions/1/deprecationWarning', 'must be <= 256 characters long'],
      [
        '/spec/versions/2/deprecationWarning',
        'must only contain printable UTF-8 characters; non-printable character found at index 3',
      ],
      ['/spec/versions/3/deprecationWarning', 'can only be set for deprecated versions'],
    ]);
  });
});
