import { describe, expect, it } from 'vitest';
import { MAX_FINDINGS_PER_DOCUMENT } from '../../src/loaders/document-finding-limit.js';
import { type Finding } from '../../src/loaders/finding.js';
import { loadManifests, MAX_FINDINGS_PER_LOAD } from '../../src/loaders/load-manifests.js';
import { parseManifest } from '../../src/loaders/parse/parse-manifest.js';

const DEFINITION = `metadata:
  type: rd
spec:
  type: Things.example.org
  schema:
    type: object
    properties:
      items: { type: array, items: { type: integer } }
`;

const codes = (findings: readonly Finding[]) => findings.map((f) => f.code);

// Generous timeouts: these run on shared machines; the bound that matters is no quadratic blowup.
describe('time and findings proportional to the input', { timeout: 30_000 }, () => {
  it('reports 100 findings of a document and counts the rest in one "and N more", at once', () => {
    const labels = Array.from({ length: 10_000 }, (_, i) => `    k${i}: ${i}\n`).join('');
    const started = Date.now();
    const { findings } = loadManifests([
      { path: 'd.yaml', text: DEFINITION },
      {
        path: 't.yaml',
        text: `metadata:\n  type: Things.example.org\n  id: a\n  labels:\n${labels}spec: {}\n`,
      },
    ]);
    // Positions come from an index of the document, not a search per finding (was minutes).
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(findings).toHaveLength(MAX_FINDINGS_PER_DOCUMENT + 1);
    expect(findings[0]).toMatchObject({ code: 'too-many-findings', line: 1, col: 1 });
    expect(findings[0]?.message).toContain(`and ${10_000 - MAX_FINDINGS_PER_DOCUMENT} more`);
    expect(findings[1]).toMatchObject({ code: 'wrong-type', line: 5, col: 9 });
    expect(findings.at(-1)).toMatchObject({ line: 4 + MAX_FINDINGS_PER_DOCUMENT, col: 10 });
  });

  it('locates the violations of one alias expanded into thousands of values at the alias', () => {
    const values = Array.from({ length: 10_000 }, () => '"s"').join(', ');
    const { findings } = loadManifests([
      { path: 'd.yaml', text: DEFINITION },
      {
        path: 't.yaml',
        text: `metadata: {type: Things.example.org, id: a}\nspec:\n  items: &big [${values}]\n  more: *big\n`,
      },
    ]);
    expect(codes(findings).filter((c) => c === 'schema-violation')).toHaveLength(
      MAX_FINDINGS_PER_DOCUMENT,
    );
    expect(findings.find((f) => f.pointer === '/spec/items/5')).toMatchObject({ line: 3 });
  });

  it('reports at most 1000 findings per load, then one "and N more" that counts the errors', () => {
    const docs = Array.from(
      { length: 1500 },
      (_, i) => `---\nmetadata: {type: Things.example.org, id: t${i}}\nspec: {items: [x]}\n`,
    ).join('');
    const { findings } = loadManifests([
      { path: 'd.yaml', text: DEFINITION },
      { path: 't.yaml', text: docs },
    ]);
    expect(findings).toHaveLength(MAX_FINDINGS_PER_LOAD + 1);
    expect(findings.at(-1)).toMatchObject({ code: 'too-many-findings', file: '' });
    expect(findings.at(-1)?.message).toContain('and 500 more findings (500 of them errors)');
  });

  it("leaves out another tool's files' errors first, not the errors after them", () => {
    // istio's release notes (release-notes/v2), then a typo of a built-in group.
    const notes = Array.from(
      { length: 1005 },
      (_, i) => `---\napiVersion: release-notes/v2\nkind: feature\narea: n${i}\n`,
    ).join('');
    const typo = '---\napiVersion: app/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {}\n';
    const { findings } = loadManifests([
      { path: 'notes.yaml', text: notes },
      { path: 'typo.yaml', text: typo },
    ]);
    expect(findings).toHaveLength(MAX_FINDINGS_PER_LOAD + 1);
    expect(findings.filter((f) => f.file === 'typo.yaml')).toEqual([
      expect.objectContaining({ code: 'unknown-type', rule: 'builtin-kind' }),
    ]);
    expect(findings.filter((f) => f.rule === 'tool-kind')).toHaveLength(MAX_FINDINGS_PER_LOAD - 1);
    expect(findings.at(-1)?.message).toContain('and 6 more findings (6 of them errors)');
  });

  it('locates a finding in the last of many documents by parsing that document alone', () => {
    const docs = Array.from({ length: 2000 }, (_, i) => `---\na: ${i}\n`).join('');
    const { documents } = parseManifest(`${docs}---\nb:\n  c: 1\n`, 'm.yaml');
    expect(documents.at(-1)?.locate('/b/c')).toEqual({ line: 4003, col: 6 });
    expect(documents[3]?.locate('/a')).toEqual({ line: 8, col: 4 });
  });
  it('reads the double-quoted strings of a Kubernetes object in time proportional to the file', () => {
    // Each string was searched for `\\/` from its start to the next backslash of the file: with
    // none after them, 50,000 strings read the 16 MB after them 50,000 times (was a minute).
    const values = Array.from({ length: 50_000 }, (_, i) => `  k${i}: "v${i}"\n`).join('');
    const tail = `# ${'x'.repeat(16_000_000)}\n`;
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n${values}${tail}`;
    const started = Date.now();
    const { documents, findings } = parseManifest(text, 'big.yaml');
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(findings).toEqual([]);
    expect((documents[0]?.value as { data: Record<string, string> }).data.k49999).toBe('v49999');
    // The escape is still found in a string of the same file.
    const slash = parseManifest(`${text.slice(0, -tail.length)}  z: "a\\/b"\n${tail}`, 'big.yaml');
    expect(slash.findings.map((f) => [f.code, f.line, f.col])).toEqual([
      ['yaml-syntax', 50_006, 6],
    ]);
  });
});
