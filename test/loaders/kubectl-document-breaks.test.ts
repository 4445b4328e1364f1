/**
 * Where kubectl's reader (`YAMLReader` of `k8s.io/apimachinery/pkg/util/yaml`) cuts a stream
 * otherwise than YAML: a line starting with `---` followed by anything but a comment is refused
 * (`invalid Yaml document separator`), and a document after a `...` is never applied. YAML takes
 * all of these; a check that passed them would pass what `kubectl apply` refuses or drops.
 */
import { describe, expect, it } from 'vitest';
import { kubectlDocumentBreaks } from '../../src/loaders/kubectl-document-breaks.js';
import { parseManifest } from '../../src/loaders/parse/parse-manifest.js';

const CM = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: ${name} }\n`;

/** Each document's name and whether it was refused, and the separator findings' lines. */
function read(text: string) {
  const parsed = parseManifest(text, 'cm.yaml');
  return {
    documents: parsed.documents.map((d) => [
      (d.value as { metadata?: { name?: string } }).metadata?.name,
      d.hasErrors,
    ]),
    findings: parsed.findings
      .filter((f) => f.code === 'document-separator')
      .map((f) => [f.line, f.col, f.severity]),
  };
}

describe("kubectl's cuts of a YAML stream", () => {
  it('takes separators alone, with spaces or a comment after them, and a file without any', () => {
    const text = `${CM('a')}---\n${CM('b')}---   \n${CM('c')}--- # next\n${CM('d')}`;
    expect(kubectlDocumentBreaks(text)).toEqual([]);
    expect(read(text).findings).toEqual([]);
    expect(read(text).documents.every(([, refused]) => refused === false)).toBe(true);
  });

  it('refuses a document on the separator line, a tag after it, and a separator glued to a key', () => {
    expect(
      read(`${CM('one')}--- {apiVersion: v1, kind: ConfigMap, metadata: {name: two}}\n`),
    ).toEqual({
      documents: [
        ['one', false],
        ['two', true],
      ],
      findings: [[4, 1, 'error']],
    });
    // The tag's line comes before the document's first key: reported there.
    expect(read(`--- !!map\n${CM('tagged')}`)).toEqual({
      documents: [['tagged', true]],
      findings: [[2, 1, 'error']],
    });
    expect(kubectlDocumentBreaks(`${CM('a')}---apiVersion: v1\n`)).toEqual([
      {
        line: 4,
        message:
          'kubectl refuses line 4 (invalid Yaml document separator: apiVersion: v1): its reader cuts the file at every line that starts with ---, with nothing but a comment after it; indent that line if it goes on with the value above, else put --- on a line of its own',
      },
    ]);
  });

  it('refuses a quoted value whose next line starts with ---, which YAML (and go-yaml) read whole', () => {
    const pem = `${CM('pem')}data: {"ca.crt": "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----"}\n`;
    const parsed = parseManifest(pem, 'cm.yaml');
    expect(parsed.findings.map((f) => [f.code, f.line])).toEqual([['document-separator', 5]]);
    expect(parsed.findings[0]?.message).toContain("indent that line past its key's column");
    expect(parsed.documents.map((d) => d.hasErrors)).toEqual([true]);
  });

  it('refuses a document after ..., which kubectl never applies, until the next ---', () => {
    const text = `${CM('first')}...\n# a comment\n${CM('second')}---\n${CM('third')}`;
    expect(read(text)).toEqual({
      documents: [
        ['first', false],
        ['second', true],
        ['third', false],
      ],
      findings: [[6, 1, 'error']],
    });
    // An end marker at the end of the stream, or before a ---, drops nothing.
    expect(read(`${CM('a')}...\n---\n${CM('b')}...\n`).findings).toEqual([]);
  });

  it("leaves alone documents that are no Kubernetes objects: kubectl never reads cosi's own", () => {
    expect(read('--- {metadata: {type: vm, id: a}, spec: {}}\n').findings).toEqual([]);
  });
});
