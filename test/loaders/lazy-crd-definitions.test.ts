import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readDefinitionPaths } from '../../src/loaders/definition-paths.js';
import { isUnreadDefinition } from '../../src/loaders/kubernetes/unread-definitions.js';
import { readManifests } from '../../src/loaders/manifest-reader.js';

/**
 * Issue 29 point 6: the CRDs of `--definitions` cost the scan of their files; a CRD is parsed the
 * first time a document uses its kind, and what is wrong with it is then reported at its own
 * file:line:col.
 */

/** A CRD as generators write it (block style), with `schema` lines inside its version. */
const blockCrd = (
  plural: string,
  kind: string,
  schema: string,
): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.example.org
spec:
  group: example.org
  names:
    kind: ${kind}
    plural: ${plural}
    shortNames:
    - ${plural.slice(0, 2)}
  scope: Namespaced
  versions:
  - additionalPrinterColumns:
    - jsonPath: .spec.size
      name: Size
      type: integer
    name: v1
    schema:
      openAPIV3Schema:
${schema}
    served: true
    storage: true
`;

const GADGETS = blockCrd(
  'gadgets',
  'Gadget',
  `        type: object
        properties:
          spec:
            type: object
            properties:
              size:
                type: integer
                maximum: 10`,
);

/** Its schema's YAML is broken (an unclosed flow sequence). */
const WIDGETS = blockCrd(
  'widgets',
  'Widget',
  `        type: object
        properties:
          spec: [ { type: object`,
);

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-lazy-crds-'));
  await mkdir(path.join(dir, 'crds'));
  await mkdir(path.join(dir, 'manifests'));
  await writeFile(path.join(dir, 'crds', 'gadgets.yaml'), GADGETS);
  await writeFile(path.join(dir, 'crds', 'widgets.yaml'), WIDGETS);
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const manifest = (kind: string, size: number): string =>
  `apiVersion: example.org/v1\nkind: ${kind}\nmetadata:\n  name: one\n  namespace: default\nspec:\n  size: ${size}\n`;

describe('the CRDs of --definitions, parsed when used', () => {
  it('are named from their outline, and neither file is parsed while no document uses them', async () => {
    const { definitions, findings } = await readDefinitionPaths(['crds'], { cwd: dir });
    // The broken YAML of widgets.yaml is not read yet: nothing is reported.
    expect(findings).toEqual([]);
    expect(definitions.map((d) => [d.type, d.aliases.slice(0, 2), d.kubernetes?.kind])).toEqual([
      ['Gadgets.example.org', ['ga', 'gadget'], 'Gadget'],
      ['Widgets.example.org', ['wi', 'widget'], 'Widget'],
    ]);
    expect(definitions.every(isUnreadDefinition)).toBe(true);
  });

  it("parses a used kind's CRD and checks documents against its schema; the other stays unread", async () => {
    const { definitions } = await readDefinitionPaths(['crds'], { cwd: dir });
    await writeFile(path.join(dir, 'manifests', 'gadget.yaml'), manifest('Gadget', 11));
    const used = await readManifests(['manifests'], { cwd: dir, definitions });
    expect(used.findings.map((f) => [f.code, f.file, f.line, f.col])).toEqual([
      ['schema-violation', 'manifests/gadget.yaml', 7, 9],
    ]);
    const [gadgets, widgets] = definitions;
    expect(gadgets && isUnreadDefinition(gadgets)).toBe(false);
    expect(gadgets?.printColumns).toEqual([{ name: 'Size', jsonPath: '{.spec.size}' }]);
    expect(widgets && isUnreadDefinition(widgets)).toBe(true);
  });

  it("checks a used CRD's versions that are not served with it, at their own lines", async () => {
    const withOld = GADGETS.replace(
      '  versions:\n',
      '  versions:\n  - name: v1alpha1\n    served: false\n    storage: false\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec: { properties: { size: { type: integer } } }\n',
    );
    await writeFile(path.join(dir, 'crds', 'gadgets.yaml'), withOld);
    const { definitions, findings } = await readDefinitionPaths(['crds'], { cwd: dir });
    expect(findings).toEqual([]);
    await writeFile(path.join(dir, 'manifests', 'gadget.yaml'), manifest('Gadget', 1));
    const used = await readManifests(['manifests'], { cwd: dir, definitions });
    expect(used.findings.map((f) => [f.code, f.file, f.line, f.pointer])).toContainEqual([
      'invalid-schema',
      'crds/gadgets.yaml',
      21,
      '/spec/versions/0/schema/openAPIV3Schema/properties/spec',
    ]);
  });

  it('reports a used CRD that does not parse at its own file:line:col, and its kind as unknown', async () => {
    const { definitions } = await readDefinitionPaths(['crds'], { cwd: dir });
    await writeFile(path.join(dir, 'manifests', 'widget.yaml'), manifest('Widget', 1));
    const used = await readManifests(['manifests'], { cwd: dir, definitions });
    const codes = used.findings.map((f) => [f.code, f.file]);
    expect(codes).toContainEqual(['yaml-syntax', 'crds/widgets.yaml']);
    expect(codes).toContainEqual(['unknown-type', 'manifests/widget.yaml']);
    const syntax = used.findings.find((f) => f.code === 'yaml-syntax');
    expect(syntax?.line).toBeGreaterThanOrEqual(22);
  });

  it('knows a used kind has the status subresource from the outline: its status is neither checked nor kept', async () => {
    const withStatus = GADGETS.replace(
      '    storage: true\n',
      '    storage: true\n    subresources:\n      status: {}\n',
    ).replace(
      '                maximum: 10',
      '                maximum: 10\n          status:\n            type: object\n            required: [ready]',
    );
    await writeFile(path.join(dir, 'crds', 'gadgets.yaml'), withStatus);
    const { definitions } = await readDefinitionPaths(['crds'], { cwd: dir });
    await writeFile(
      path.join(dir, 'manifests', 'gadget.yaml'),
      `${manifest('Gadget', 1)}status:\n  phase: Up\n`,
    );
    const used = await readManifests(['manifests'], { cwd: dir, definitions });
    expect(used.findings.map((f) => [f.code, f.line, f.pointer])).toEqual([
      ['ignored-status', 9, '/status'],
    ]);
    expect(used.resources[0]?.resource.spec).not.toHaveProperty('status');
  });

  it('takes the same CRD kept in two files once (a chart and a kustomize base), as written apart', async () => {
    const again = GADGETS.replace('metadata:\n', 'metadata:\n  labels:\n    chart: gadgets-1.0\n')
      .replaceAll('\n  ', '\n    ')
      .replace('apiVersion', '# vendored\napiVersion');
    await writeFile(path.join(dir, 'crds', 'more-gadgets.yaml'), again);
    const { definitions, findings } = await readDefinitionPaths(['crds'], { cwd: dir });
    expect(findings).toEqual([]);
    expect(definitions.map((d) => d.type)).toEqual(['Gadgets.example.org', 'Widgets.example.org']);
  });

  it('walks a directory named on purpose that an ignore pattern skips in the tree (--ignore crds, --definitions crds)', async () => {
    const named = await readDefinitionPaths(['crds'], { cwd: dir, ignore: ['crds/'] });
    expect(named.definitions.map((d) => d.type)).toEqual([
      'Gadgets.example.org',
      'Widgets.example.org',
    ]);
    // Met while walking, it is skipped as before.
    const walked = await readDefinitionPaths(['.'], { cwd: dir, ignore: ['crds/'] });
    expect(walked.definitions).toEqual([]);
  });

  it('reads the CRDs of a List, as kubectl get crd -o yaml writes them', async () => {
    const items = GADGETS.trimEnd()
      .split('\n')
      .map((line, i) => (i === 0 ? `- ${line}` : `  ${line}`))
      .join('\n');
    await writeFile(
      path.join(dir, 'crds', 'gadgets.yaml'),
      `apiVersion: v1\nkind: List\nitems:\n${items}\n`,
    );
    const { definitions, findings } = await readDefinitionPaths(['crds/gadgets.yaml'], {
      cwd: dir,
    });
    expect(findings).toEqual([]);
    expect(definitions.map((d) => d.type)).toEqual(['Gadgets.example.org']);
  });

  it('reads the CRDs of a CustomResourceDefinitionList whose items name no type, as kubectl does', async () => {
    const items = GADGETS.trimEnd()
      .split('\n')
      .slice(2)
      .map((line, i) => (i === 0 ? `- ${line}` : `  ${line}`))
      .join('\n');
    await writeFile(
      path.join(dir, 'crds', 'gadgets.yaml'),
      `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinitionList\nitems:\n${items}\n`,
    );
    const { definitions, findings } = await readDefinitionPaths(['crds/gadgets.yaml'], {
      cwd: dir,
    });
    expect(findings).toEqual([]);
    expect(definitions.map((d) => d.type)).toEqual(['Gadgets.example.org']);
  });

  it('parses at once files that define the same type twice, so the duplicate is reported', async () => {
    await writeFile(
      path.join(dir, 'crds', 'more-gadgets.yaml'),
      GADGETS.replace('maximum: 10', 'maximum: 20'),
    );
    const { findings } = await readDefinitionPaths(['crds'], { cwd: dir });
    expect(findings.map((f) => [f.code, f.file])).toEqual(
      expect.arrayContaining([['duplicate-definition', 'crds/more-gadgets.yaml']]),
    );
  });
});
