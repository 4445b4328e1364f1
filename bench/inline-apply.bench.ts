/**
 * `cosi test` applying n ConfigMaps written inline in the scenario (review H6), each run its own
 * process: in a flow list on one line (`apply: [{...}, {...}]`), in a block list (a document a few
 * lines long), and, for comparison, from a manifest file the step names (`apply: cms.yaml`). The
 * inline documents are loaded at their place in the scenario: a load that padded each with what
 * stood before it grew with n x n (`size x2.0 -> time x4`); it should grow as the file does.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatCount, growth, printTable, runProcess, sizes, type ProcessRun } from './harness.js';

const SIZES = sizes([500, 1_000, 2_000], [250, 500]);
const benchDir = path.dirname(fileURLToPath(import.meta.url));
const cli = path.resolve(benchDir, '../bin/cosi.js');

/** How the n documents are written, by label: the scenario's text. */
const LAYOUTS: readonly (readonly [string, (n: number) => string])[] = [
  ['inline, flow, one line', (n) => scenario(`  - apply: [${flowDocuments(n).join(', ')}]\n`, n)],
  [
    'inline, block list',
    (n) =>
      scenario(
        `  - apply:\n${names(n)
          .map(
            (name) =>
              `      - apiVersion: v1\n        kind: ConfigMap\n        metadata: { name: ${name} }\n        data: { a: b }\n`,
          )
          .join('')}`,
        n,
      ),
  ],
  ['file', (n) => scenario('  - apply: cms.yaml\n', n)],
];

function names(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `c${i}`);
}

function flowDocuments(n: number): string[] {
  return names(n).map(
    (name) =>
      `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "${name}"}, "data": {"a": "b"}}`,
  );
}

function scenario(apply: string, n: number): string {
  return [
    'name: inline apply',
    'manifests: [base.yaml]',
    'steps:',
    apply.trimEnd(),
    `  - expect: { apiVersion: v1, kind: ConfigMap, metadata: { name: c${n - 1} }, data: { a: b } }`,
    '',
  ].join('\n');
}

export async function run(): Promise<void> {
  const byLayout = new Map<string, ProcessRun[]>(LAYOUTS.map(([label]) => [label, []]));
  for (const n of SIZES) {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-inline-apply-bench-'));
    try {
      await writeFile(
        path.join(dir, 'base.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: base }\ndata: { a: b }\n',
      );
      await writeFile(path.join(dir, 'cms.yaml'), `${flowDocuments(n).join('\n---\n')}\n`);
      for (const [label, text] of LAYOUTS) {
        const file = path.join(dir, `${label.replace(/\W+/g, '-')}.cosi-test.yaml`);
        await writeFile(file, text(n));
        byLayout.get(label)!.push(await runProcess([cli, 'test', file], dir));
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const file = byLayout.get('file')!;
  const rows: string[][] = [];
  for (const [label] of LAYOUTS) {
    const runs = byLayout.get(label)!;
    const cpu = runs.map((r) => r.cpuMs);
    runs.forEach((r, i) => {
      rows.push([
        label,
        formatCount(SIZES[i]!),
        r.ms.toFixed(0),
        r.cpuMs.toFixed(0),
        `${(r.cpuMs / file[i]!.cpuMs).toFixed(1)}x`,
        (r.maxRss / 1024).toFixed(0),
        growth(SIZES, cpu, i).replace('time', 'CPU'),
      ]);
    });
  }
  printTable(
    '`cosi test` applying n ConfigMaps: written inline in the scenario, or from a file',
    ['documents', 'n', 'wall ms', 'CPU ms', 'CPU / file', 'peak RSS MB', 'growth'],
    rows,
  );
}
