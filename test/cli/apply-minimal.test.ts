import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { cli } from './run-cli.js';

describe('cosi apply on manifests without controllers', () => {
  it('prints the state as a talosctl-style table, grouped by type', async () => {
    const r = await cli(['apply', '-f', 'fixtures/minimal', '--stable']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAMESPACE\s+TYPE\s+ID\s+VERSION\s+OWNER\s+PHASE/);
    expect(lines.length).toBeGreaterThan(1);
    expect(r.stderr).toMatch(/^converged, \d+ resources?, 0 controllers/m);
    expect(r.stderr).not.toMatch(/wall time/);
  });

  it('lists definitions with `get rd`, their explicit aliases before the derived ones as in COSI', async () => {
    const r = await cli(['get', 'rd', '-f', 'fixtures/minimal']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^meta\s+ResourceDefinition\s+vms\.example\.org\s+.*\smachine vm vms$/m,
    );
  });

  it('prints a --- stream of { metadata, spec } with -o yaml, with pinned timestamps', async () => {
    const r = await cli(['apply', '-f', 'fixtures/minimal', '-o', 'yaml', '--stable']);
    expect(r.code).toBe(0);
    const docs = parseAllDocuments(r.stdout).map(
      (d) => d.toJS() as Record<string, Record<string, unknown>>,
    );
    expect(docs.length).toBeGreaterThan(0);
    for (const doc of docs) {
      expect(Object.keys(doc)).toEqual(expect.arrayContaining(['metadata']));
      expect(Object.keys(doc.metadata!).slice(0, 8)).toEqual([
        'namespace',
        'type',
        'id',
        'version',
        'owner',
        'phase',
        'created',
        'updated',
      ]);
      expect(doc.metadata!.created).toBe('2025-01-01T00:00:00Z');
    }
  });

  it('prints JSON with -o json, the same resources as YAML', async () => {
    const json = await cli(['apply', '-f', 'fixtures/minimal', '-o', 'json', '--stable']);
    const yaml = await cli(['apply', '-f', 'fixtures/minimal', '-o', 'yaml', '--stable']);
    expect(JSON.parse(json.stdout)).toEqual({
      apiVersion: 'v1',
      items: parseAllDocuments(yaml.stdout).map((d) => d.toJS() as unknown),
      kind: 'List',
      metadata: { resourceVersion: '' },
    });
  });

  it('gives the same output for the same input', async () => {
    const a = await cli(['apply', '-f', 'fixtures/minimal', '-o', 'yaml', '--stable']);
    const b = await cli(['apply', '-f', 'fixtures/minimal', '-o', 'yaml', '--stable']);
    expect(b.stdout).toBe(a.stdout);
    expect(b.stderr).toBe(a.stderr);
  });

  it('exits 1 and lists every finding with file:line:col for invalid manifests', async () => {
    const r = await cli(['apply', '-f', 'fixtures/invalid/several-problems']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const findings = r.stderr
      .split('\n')
      .filter((l) => /^fixtures\/invalid\/several-problems\/.+:\d+:\d+: error\[/.test(l));
    expect(findings.length).toBeGreaterThan(1);
  });

  it('exits 2 for usage errors: no -f, an unknown format, an unknown flag', async () => {
    expect((await cli(['apply'])).code).toBe(2);
    const format = await cli(['apply', '-f', 'fixtures/minimal', '-o', 'xml']);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('unknown format "xml"');
    expect((await cli(['apply', '--bogus'])).code).toBe(2);
    const config = await cli(['apply', '-f', 'fixtures/minimal', '--config', 'nope.ts']);
    expect(config.code).toBe(2);
    expect(config.stderr).toContain('nope.ts');
  });

  it('prints help with examples and exits 0', async () => {
    const r = await cli(['apply', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('-o, --output <format>');
  });

  it('filters the printed state by type alias and by namespace', async () => {
    const ids = async (...flags: string[]) =>
      (
        JSON.parse(
          (await cli(['apply', '-f', 'fixtures/minimal', '-o', 'json', ...flags])).stdout,
        ) as {
          items: { metadata: { id: string } }[];
        }
      ).items.map((d) => d.metadata.id);
    expect(await ids()).toEqual(['web-1', 'db-1']);
    expect(await ids('-t', 'machine', '-n', 'staging')).toEqual(['db-1']);
    expect((await cli(['apply', '-f', 'fixtures/minimal', '-t', 'nothing'])).code).toBe(2);
  });
});
