/**
 * One large manifest file, checked by a whole `cosi check` process at 1, 2, 4 and 8 MB (--quick:
 * 1 and 2): a `kind: List` in JSON (as `kubectl get all -A -o json` writes one), the same list in
 * YAML, a stream of many small documents, and one Pod whose container args are a flow sequence
 * of quoted strings. Beside each, in the same run, a process that only parses the same bytes
 * (JSON.parse, or yaml's parseAllDocuments and toJS: `parse-one-file.mjs`). Printed: CPU time
 * (user + system, every thread: on a loaded machine the wall time counts waits for a core), peak
 * RSS, and the growth of the check's CPU time per doubling: linear is x2, a quadratic path x4.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printTable, runProcess, sizes, type ProcessRun } from './harness.js';

const MEGABYTES = sizes([1, 2, 4, 8], [1, 2]);
const benchDir = path.dirname(fileURLToPath(import.meta.url));
const cli = path.resolve(benchDir, '../bin/cosi.js');

const configMap = (i: number) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: `cm-${i}`, namespace: `ns-${i % 50}`, labels: { app: `a${i % 100}` } },
  data: { key: `value-${i}` },
});

const yamlItem = (i: number, indent: string) =>
  `apiVersion: v1\n${indent}kind: ConfigMap\n${indent}metadata:\n${indent}  name: cm-${i}\n${indent}  namespace: ns-${i % 50}\n${indent}  labels:\n${indent}    app: a${i % 100}\n${indent}data:\n${indent}  key: value-${i}\n`;

/** Parts from `part(i)` until they make `bytes`. */
function upTo(bytes: number, part: (i: number) => string): string[] {
  const parts: string[] = [];
  for (let i = 0, n = 0; n < bytes; i++) {
    const text = part(i);
    parts.push(text);
    n += text.length + 2;
  }
  return parts;
}

/** The shapes measured: a file name and its text of about `bytes`. */
const SHAPES: readonly (readonly [string, string, (bytes: number) => string])[] = [
  [
    'JSON List',
    'list.json',
    (bytes) =>
      `{"apiVersion":"v1","kind":"List","items":[\n${upTo(bytes, (i) => JSON.stringify(configMap(i))).join(',\n')}\n]}\n`,
  ],
  [
    'YAML List',
    'list.yaml',
    (bytes) =>
      `apiVersion: v1\nkind: List\nitems:\n${upTo(bytes, (i) => `- ${yamlItem(i, '  ')}`).join('')}`,
  ],
  ['documents', 'stream.yaml', (bytes) => upTo(bytes, (i) => `---\n${yamlItem(i, '')}`).join('')],
  [
    'flow args',
    'pod.yaml',
    (bytes) =>
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: default\nspec:\n  containers:\n  - name: c\n    image: busybox\n    args: [${upTo(bytes, (i) => `"arg-${i}"`).join(', ')}]\n`,
  ],
];

export async function run(): Promise<void> {
  const rows: string[][] = [];
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-large-file-bench-'));
  try {
    for (const [label, name, generate] of SHAPES) {
      let previous: ProcessRun | undefined;
      for (const mb of MEGABYTES) {
        const file = path.join(dir, name);
        const text = generate(mb * 1_000_000);
        await writeFile(file, text);
        const parse = await runProcess([path.join(benchDir, 'parse-one-file.mjs'), file]);
        const check = await runProcess([cli, 'check', '-q', file], dir);
        rows.push([
          label,
          (text.length / 1e6).toFixed(1),
          parse.cpuMs.toFixed(0),
          check.cpuMs.toFixed(0),
          `${(check.cpuMs / parse.cpuMs).toFixed(1)}x`,
          (parse.maxRss / 1024).toFixed(0),
          (check.maxRss / 1024).toFixed(0),
          ((check.maxRss * 1024) / text.length).toFixed(0),
          previous === undefined ? '' : `x${(check.cpuMs / previous.cpuMs).toFixed(2)}`,
        ]);
        previous = check;
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  printTable(
    'one large file, `cosi check` against a bare parse of the same bytes (whole processes)',
    [
      'file',
      'MB',
      'parse CPU ms',
      'check CPU ms',
      'check/parse',
      'parse RSS MB',
      'check RSS MB',
      'RSS B/byte',
      'CPU growth',
    ],
    rows,
    ['  (CPU growth: the check against the size before, half as large: x2 is linear)'],
  );
}
