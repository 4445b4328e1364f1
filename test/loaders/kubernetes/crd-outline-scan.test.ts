import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { scanCrdOutlines } from '../../../src/loaders/kubernetes/crd-outline-scan.js';

/**
 * The quick scan that names a `--definitions` CRD's kinds without parsing its file: it must read
 * exactly what the YAML parser reads, or say it is not sure (the file is then parsed).
 */

const REAL = ['fixtures/real-crds/cert-manager/crds', 'fixtures/real-crds/gateway-api/crds'];

/** A parsed CRD, as far as the outline reads it. */
interface ParsedCrd {
  readonly metadata?: { readonly name?: string };
  readonly spec: {
    readonly group: string;
    readonly scope: string;
    readonly names: { plural: string; singular?: string; kind: string; shortNames?: string[] };
    readonly versions: readonly {
      name: string;
      served: boolean;
      storage: boolean;
      deprecated?: boolean;
      subresources?: { status?: unknown; scale?: unknown };
    }[];
  };
}

/** What the scan reads, as the YAML parser reads it. */
function parsedOutlines(text: string): unknown[] {
  return parseAllDocuments(text)
    .map((doc) => doc.toJS() as ParsedCrd | null)
    .filter((doc) => doc !== null)
    .map((doc, index) => {
      const { plural, singular, kind, shortNames } = doc.spec.names;
      return {
        index,
        name: doc.metadata?.name,
        group: doc.spec.group,
        scope: doc.spec.scope,
        names: {
          plural,
          kind,
          ...(singular ? { singular } : {}),
          ...(shortNames ? { shortNames } : {}),
        },
        versions: doc.spec.versions.map(({ name, served, storage, deprecated, subresources }) => ({
          name,
          served,
          storage,
          statusSubresource:
            typeof subresources?.status === 'object' && subresources.status !== null,
          ...(typeof subresources?.scale === 'object' && subresources.scale !== null
            ? { scaleSubresource: true }
            : {}),
          ...(deprecated === true ? { deprecated: true } : {}),
        })),
      };
    });
}

const crd = (body: string): string =>
  `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n${body}`;

const GADGETS = crd(`metadata:
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
`);

describe('the outline scan of a CRD file', () => {
  const files = REAL.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => path.join(dir, f)),
  );

  it.each(files)('reads %s as the YAML parser does', (file) => {
    const text = readFileSync(file, 'utf8');
    expect(scanCrdOutlines(text)).toEqual(parsedOutlines(text));
  });

  it('skips nested values by their indentation: block scalars, comments, multi-line scalars, compact lists', () => {
    const text = crd(`metadata:
  annotations:
    note: |
      kind: NotThis
    plain: a long
      folded value
  name: gadgets.example.org # the CRD's name
# a comment at the margin inside the spec
spec:
  group: "example.org"
  names:
    kind: 'Gadget'
    plural: gadgets
    shortNames: [gd, 'gdg']
    singular: gadget
  scope: Namespaced
  versions:
  -   name: v1
      schema:
        openAPIV3Schema:
          description: >-
            storage: false
          type: object
      served: true
      storage: true
  - name: v2
    served: false
    storage: false
---
${GADGETS.replaceAll('gadgets', 'widgets').replace('Gadget', 'Widget')}`);
    expect(scanCrdOutlines(text)).toEqual(parsedOutlines(text));
    expect(scanCrdOutlines(text)?.map((o) => o.names.kind)).toEqual(['Gadget', 'Widget']);
  });

  it.each([
    [
      'a flow mapping',
      GADGETS.replace(
        /names:\n {4}kind: Gadget\n {4}plural: gadgets/,
        'names: { kind: Gadget, plural: gadgets }',
      ),
    ],
    ['an anchor', GADGETS.replace('group: example.org', 'group: &g example.org')],
    ['a tag', GADGETS.replace('group: example.org', 'group: !!str example.org')],
    ['a number where a name is wanted', GADGETS.replace('group: example.org', 'group: 1.5')],
    ['a multi-line name', GADGETS.replace('plural: gadgets', 'plural: gad\n      gets')],
    [
      'a duplicate key',
      GADGETS.replace('  scope: Namespaced', '  scope: Namespaced\n  scope: Cluster'),
    ],
    ['an escape', GADGETS.replace('group: example.org', 'group: "example\\x2eorg"')],
    ['a directive', `%YAML 1.2\n---\n${GADGETS}`],
    ['a served flag that is no boolean', GADGETS.replace('served: true', 'served: yes')],
    [
      'another kind of document',
      `${GADGETS}---\napiVersion: v1\nkind: ConfigMap\nmetadata: { name: x }\n`,
    ],
    ['a document that is not a mapping', `${GADGETS}---\n- a\n`],
  ])('is not sure of %s, so the file is parsed', (_name, text) => {
    expect(scanCrdOutlines(text)).toBeUndefined();
  });

  it.each([
    ['an empty flow mapping', '    subresources:\n      status: {}\n', true],
    ['an empty flow mapping and a comment', '    subresources:\n      status: { } # on\n', true],
    ['a block mapping', '    subresources:\n      status:\n        a: b\n', true],
    ['nothing (null)', '    subresources:\n      status:\n      scale: {}\n', false],
    [
      'no status, only scale',
      '    subresources:\n      scale:\n        specReplicasPath: .spec.r\n',
      false,
    ],
    ['no subresources', '', false],
    ['empty subresources', '    subresources: {}\n', false],
  ])('reads the status subresource written as %s', (_name, subresources, expected) => {
    const text = GADGETS.replace('    storage: true\n', `    storage: true\n${subresources}`);
    expect(scanCrdOutlines(text)).toEqual(parsedOutlines(text));
    expect(scanCrdOutlines(text)?.[0]?.versions[0]?.statusSubresource).toBe(expected);
  });

  it.each([
    ['a flow mapping with content', 'status: { a: 1 }'],
    ['a sequence', 'status:\n        - a'],
    ['an explicit null', 'status: null'],
    ['a scalar on the next line', 'status:\n        on'],
  ])('is not sure of a status subresource written as %s', (_name, status) => {
    const text = GADGETS.replace(
      '    storage: true\n',
      `    storage: true\n    subresources:\n      ${status}\n`,
    );
    expect(scanCrdOutlines(text)).toBeUndefined();
  });

  it('has no outline for a file of comments alone', () => {
    expect(scanCrdOutlines('# nothing here\n---\n')).toEqual([]);
  });
});
