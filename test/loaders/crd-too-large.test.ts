import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/loaders/load-manifests.js';
import { MAX_CRD_BYTES, parseManifest } from '../../src/loaders/parse/parse-manifest.js';

/** The lines of a Widget CRD up to its root schema's `type: object`. */
const CRD_HEAD = [
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
];

/** A CRD whose schema description makes it `bytes` long. */
function crd(bytes: number): string {
  const head = [...CRD_HEAD, '          description: '].join('\n');
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
    const text = `metadata: { type: vm, id: a }\nspec: {}\n---\n${crd(MAX_CRD_BYTES + 4096)}`;
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

describe('a CustomResourceDefinition measured as the JSON kubectl sends', () => {
  /** A CRD with `properties` fields nested `depth` deep under each of `width` properties. */
  function indentedCrd(width: number, depth: number): string {
    const lines = [...CRD_HEAD, '          properties:'];
    for (let i = 0; i < width; i++) {
      let indent = ' '.repeat(12);
      lines.push(`${indent}field${i}:`);
      for (let d = 0; d < depth; d++) {
        lines.push(`${indent}  type: object`, `${indent}  properties:`, `${indent}    f:`);
        indent += '    ';
      }
      lines.push(`${indent}  type: string`);
    }
    return `${lines.join('\n')}\n`;
  }

  it('is read when its text is over the limit but its JSON is not (generated CRDs are mostly indentation)', () => {
    const text = `${indentedCrd(1800, 13)}---\napiVersion: example.org/v1\nkind: Widget\nmetadata: { name: w }\nfield0: { f: { f: {} } }\n`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(MAX_CRD_BYTES);
    const result = loadManifests([{ path: 'crd.yaml', text }]);
    // Read; only too large for client-side apply's last-applied annotation (a warning).
    expect(result.findings.map((f) => f.code)).toEqual(['large-definition']);
    expect(result.resources.map((r) => r.resource.metadata.id)).toEqual(['w']);
  });

  it('warns when its JSON is over etcd default request limit, and errs over the API server limit', () => {
    const description = (bytes: number) =>
      `---\n${crd(bytes)}`.replaceAll('widgets', `w${bytes}s`).replaceAll('Widget', `W${bytes}`);
    const findings = loadManifests([
      { path: 'crds.yaml', text: description(1_600_000) + description(MAX_CRD_BYTES - 4096) },
    ]).findings;
    expect(findings.map((f) => [f.code, f.severity, f.line, f.pointer])).toEqual([
      ['large-definition', 'warning', 3, '/kind'],
      ['large-definition', 'warning', 19, '/kind'],
    ]);
    expect(findings[0]?.message).toMatch(
      /^this CustomResourceDefinition is 1[56]\d{5} bytes as JSON: over etcd's default request limit of 1572864 bytes/,
    );
    // Quotes and escapes make the JSON longer than the text: over the limit once read.
    const quoted = `---\n${crd(MAX_CRD_BYTES - 4096).replace(/x{8}/g, 'x"\\n"xx')}`;
    expect(
      loadManifests([{ path: 'quoted.yaml', text: quoted }]).findings.map((f) => f.code),
    ).toEqual(['definition-too-large']);
  });
});
