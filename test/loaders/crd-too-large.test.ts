import { describe, expect, it } from 'vitest';
import { MAX_CRD_BYTES, parseManifest } from '../../src/loaders/parse-manifest.js';

/** A CRD whose schema description makes it `bytes` long. */
function crd(bytes: number): string {
  const head = [
    'apiVersion: apiextensions.k8s.io/v1',
    'kind: CustomResourceDefinition',
    'metadata: { name: widgets.example.org }',
    'spec:',
    '  group: example.org',
    '  names: { kind: Widget, plural: widgets }',
    '  scope: Namespaced',
    '  versions:',
    '    - name: v1',
    '      served: true',
    '      storage: true',
    '      schema:',
    '        openAPIV3Schema:',
    '          type: object',
    '          description: ',
  ].join('\n');
  return `${head}${'x'.repeat(Math.max(0, bytes - head.length - 1))}\n`;
}

describe('a CustomResourceDefinition over the API server request limit', () => {
  it('is refused at its kind line before the file is parsed', () => {
    const text = `# widgets\n${crd(MAX_CRD_BYTES + 1024)}`;
    const { documents, findings } = parseManifest(text, 'crds/widgets.yaml');
    expect(documents).toEqual([]);
    expect(findings).toMatchObject([
      {
        code: 'definition-too-large',
        severity: 'error',
        file: 'crds/widgets.yaml',
        line: 3,
        col: 1,
      },
    ]);
  });

  it('is found in a later document of a stream', () => {
    const text = `metadata: { type: vm, id: a }\nspec: {}\n---\n${crd(MAX_CRD_BYTES + 1)}`;
    const { findings } = parseManifest(text, 'all.yaml');
    expect(findings).toMatchObject([{ code: 'definition-too-large', line: 5, col: 1 }]);
  });

  it('leaves a CRD under the limit, in a stream over it, to be read', () => {
    const big = `metadata: { type: vm, id: big }\nspec: { image: ${'y'.repeat(MAX_CRD_BYTES)} }\n`;
    const { documents, findings } = parseManifest(`${crd(10_000)}---\n${big}`, 'mixed.yaml');
    expect(findings.filter((f) => f.code === 'definition-too-large')).toEqual([]);
    expect(documents).toHaveLength(2);
  });

  it('is found in JSON, its kind after the spec that makes it large', () => {
    const spec = JSON.stringify({
      group: 'example.org',
      note: `{[,"kind": x'${'z'.repeat(MAX_CRD_BYTES)}`,
    });
    const text = `# generated\n{"apiVersion": "apiextensions.k8s.io/v1", "spec": ${spec},\n  "kind": "CustomResourceDefinition"}\n`;
    const { documents, findings } = parseManifest(text, 'crd.json.yaml');
    expect(documents).toEqual([]);
    expect(findings).toMatchObject([{ code: 'definition-too-large', line: 3, col: 3 }]);
  });

  it('is found in a flow-style mapping with single quotes', () => {
    const text = `---\n{ apiVersion: apiextensions.k8s.io/v1, kind: 'CustomResourceDefinition', spec: { description: '${"it''s ".repeat(MAX_CRD_BYTES / 6)}' } }\n`;
    const { findings } = parseManifest(text, 'flow.yaml');
    expect(findings).toMatchObject([{ code: 'definition-too-large', line: 2, col: 40 }]);
  });
});
