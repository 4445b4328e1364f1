/**
 * One manifest file of many small documents, one of them invalid (issue 13, point 5): cosi's load
 * against the bare `yaml` parse of the same text, measured in the same run, at several sizes with
 * the growth factor. The load must stay within 2x of the parse and its retained heap under 10x
 * the file's size: one parse per file, and a finding's position from its document alone.
 */
import { parseAllDocuments } from 'yaml';
import type * as Loaders from '../src/loaders/index.js';
import { compare, retainedHeap } from './harness.js';

const SIZES = [25_000, 50_000, 100_000];

const DEFINITION = `metadata:
  type: rd
spec:
  type: Things.example.org
  schema:
    type: object
    properties:
      n: { type: integer }
`;

/** `count` documents; the last one breaks the schema. */
function generate(count: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = i === count - 1 ? '"x"' : String(i);
    parts.push(`---\nmetadata:\n  type: Things.example.org\n  id: t${i}\nspec:\n  n: ${n}\n`);
  }
  return parts.join('');
}

export async function run(): Promise<void> {
  const url = new URL('../dist/loaders/index.js', import.meta.url).href;
  const loaders = (await import(url)) as typeof Loaders;
  const lines = [
    'one file of many documents with one error: load vs the bare yaml parse',
    '',
    '  documents      MB   parse ms   load ms   load/parse   retained heap / file   load growth',
  ];
  let previous: number | undefined;
  for (const count of SIZES) {
    const text = generate(count);
    const files = [
      { path: 'd.yaml', text: DEFINITION },
      { path: 't.yaml', text },
    ];
    const load = (): Loaders.LoadResult => {
      const result = loaders.loadManifests(files);
      const errors = result.findings.filter((f) => f.severity === 'error');
      if (errors.length !== 1 || result.resources.length !== count - 1) {
        throw new Error(`unexpected load: ${errors.length} errors`);
      }
      return result;
    };
    const { cosi, baseline } = await compare(
      count,
      { prepare: () => undefined, work: () => void load() },
      { prepare: () => undefined, work: () => void parseAllDocuments(text) },
      { runs: count === SIZES[0] ? 2 : 1 },
    );
    const before = retainedHeap();
    const kept = load();
    const heap = retainedHeap() - before;
    if (kept.resources.length === 0) throw new Error('nothing loaded');
    const growth = previous === undefined ? '' : `${(cosi.ms / previous).toFixed(2)}x`;
    previous = cosi.ms;
    lines.push(
      `  ${String(count).padStart(9)}  ${(text.length / 1e6).toFixed(1).padStart(6)}  ${baseline.ms.toFixed(0).padStart(9)}  ${cosi.ms.toFixed(0).padStart(8)}  ${(cosi.ms / baseline.ms).toFixed(2).padStart(10)}x  ${(heap / text.length).toFixed(1).padStart(20)}x  ${growth.padStart(12)}`,
    );
  }
  lines.push('', '  (growth: load time against the size before, which is half as large)', '');
  process.stdout.write(`${lines.join('\n')}\n`);
}
