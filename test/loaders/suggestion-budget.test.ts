import { describe, expect, it, vi } from 'vitest';
import { loadManifests } from '../../src/loaders/load-manifests.js';
import { MAX_FINDINGS_PER_DOCUMENT } from '../../src/loaders/document-finding-limit.js';

const comparisons = vi.hoisted(() => ({ count: 0 }));

vi.mock('leven', async (importOriginal) => {
  const leven = (await importOriginal<{ default: (a: string, b: string) => number }>()).default;
  return {
    default: (a: string, b: string) => {
      comparisons.count++;
      return leven(a, b);
    },
  };
});

const FIELDS = 300;
const declared = Array.from({ length: FIELDS }, (_, i) => `property${String(i).padStart(4, '0')}`);
const misspelt = declared.map((name) => name.replace('property', 'prop3rty'));

const definition = `metadata:
  type: ResourceDefinitions.meta.cosi.dev
  id: dyms.example.org
spec:
  type: Dyms.example.org
  schema:
    type: object
    additionalProperties: false
    properties:
${declared.map((name) => `      ${name}: { type: string }`).join('\n')}
`;

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: dyms.x.example.org }
spec:
  group: x.example.org
  names: { kind: Dym, plural: dyms }
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
${declared.map((name) => `                ${name}: { type: string }`).join('\n')}
`;

const spec = misspelt.map((name) => `  ${name}: x`).join('\n');

function unknownFieldMessages(files: { path: string; text: string }[]): string[] {
  return loadManifests(files)
    .findings.filter((f) => f.code === 'schema-violation')
    .map((f) => f.message);
}

describe('suggestions for unknown fields', () => {
  it.each([
    ['a cosi definition', definition, `metadata: { type: dym, id: a }\nspec:\n${spec}\n`],
    [
      'a CustomResourceDefinition',
      crd,
      `apiVersion: x.example.org/v1\nkind: Dym\nmetadata: { name: a, namespace: default }\nspec:\n${spec}\n`,
    ],
  ])('are computed only for the findings a document reports, in %s', (_, schema, document) => {
    comparisons.count = 0;
    const messages = unknownFieldMessages([
      { path: 'definition.yaml', text: schema },
      { path: 'document.yaml', text: document },
    ]);
    expect(messages).toHaveLength(MAX_FINDINGS_PER_DOCUMENT);
    expect(messages[0]).toContain('(did you mean "property0000"?)');
    expect(messages.every((m) => m.includes('did you mean'))).toBe(true);
    // Each suggestion compares the name with every declared field; 300 × 300 without the bound.
    expect(comparisons.count).toBeLessThanOrEqual(MAX_FINDINGS_PER_DOCUMENT * FIELDS);
  });
});
