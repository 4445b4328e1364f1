/**
 * A document of many misspelt fields against a schema that declares as many (review round 2,
 * H4): each unknown field is a finding with a "did you mean", and a suggestion compares the name
 * with every declared field. A document reports its first findings only, so only their
 * suggestions are computed and the load stays linear; the growth column shows it (a quadratic
 * path reads `size x2.0 -> time x4`). In a cosi definition and in a CustomResourceDefinition.
 */
import type * as Loaders from '../src/loaders/index.js';
import { formatCount, growth, printTable, sizes } from './harness.js';

const SIZES = sizes([2_000, 4_000, 8_000], [500, 1_000]);

const name = (prefix: string, i: number): string => `${prefix}${String(i).padStart(6, '0')}`;

function cosiFiles(n: number): Loaders.ManifestFile[] {
  const declared: string[] = [];
  const given: string[] = [];
  for (let i = 0; i < n; i++) {
    declared.push(`      ${name('property', i)}: { type: string }\n`);
    given.push(`  ${name('prop3rty', i)}: x\n`);
  }
  return [
    {
      path: 'definition.yaml',
      text: `metadata:\n  type: rd\n  id: dyms.example.org\nspec:\n  type: Dyms.example.org\n  schema:\n    type: object\n    additionalProperties: false\n    properties:\n${declared.join('')}`,
    },
    { path: 'dym.yaml', text: `metadata: { type: dym, id: a }\nspec:\n${given.join('')}` },
  ];
}

function crdFiles(n: number): Loaders.ManifestFile[] {
  const declared: string[] = [];
  const given: string[] = [];
  for (let i = 0; i < n; i++) {
    declared.push(`              ${name('property', i)}: { type: string }\n`);
    given.push(`  ${name('prop3rty', i)}: x\n`);
  }
  return [
    {
      path: 'crd.yaml',
      text: `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: { name: dyms.x.example.org }\nspec:\n  group: x.example.org\n  names: { kind: Dym, plural: dyms }\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n${declared.join('')}`,
    },
    {
      path: 'dym.yaml',
      text: `apiVersion: x.example.org/v1\nkind: Dym\nmetadata: { name: a, namespace: default }\nspec:\n${given.join('')}`,
    },
  ];
}

export async function run(): Promise<void> {
  const url = new URL('../dist/loaders/index.js', import.meta.url).href;
  const loaders = (await import(url)) as typeof Loaders;
  const rows: string[][] = [];
  for (const [schema, files] of [
    ['cosi definition', cosiFiles],
    ['CRD', crdFiles],
  ] as const) {
    const times: number[] = [];
    SIZES.forEach((n, i) => {
      const input = files(n);
      const start = performance.now();
      const { findings } = loaders.loadManifests(input);
      times.push(performance.now() - start);
      if (!findings.some((f) => f.message.includes('did you mean'))) {
        throw new Error(`no suggestion among ${findings.length} findings`);
      }
      rows.push([schema, formatCount(n), (times[i] as number).toFixed(0), growth(SIZES, times, i)]);
    });
  }
  printTable(
    'unknown fields with a "did you mean" each: n declared fields, n misspelt keys',
    ['schema', 'fields', 'load ms', 'growth'],
    rows,
  );
}
