/**
 * A list of objects declared `uniqueItems: true` (review round 2, H5), in a cosi definition:
 * ajv's own keyword compared every pair of items; cosi's looks each item up once, so the load
 * grows with the list (a quadratic path reads `size x2.0 -> time x4`).
 */
import type * as Loaders from '../src/loaders/index.js';
import { formatCount, growth, printTable, sizes } from './harness.js';

const SIZES = sizes([10_000, 20_000, 40_000], [2_000, 4_000]);

const DEFINITION = `metadata:
  type: rd
  id: bags.example.org
spec:
  type: Bags.example.org
  schema:
    type: object
    properties:
      l:
        type: array
        uniqueItems: true
        items: { type: object, properties: { a: { type: string }, b: { type: integer } } }
`;

function bag(n: number): string {
  const items: string[] = [];
  for (let i = 0; i < n; i++) items.push(`  - { a: k${i}, b: ${i} }\n`);
  return `metadata: { type: bag, id: a }\nspec:\n  l:\n${items.join('')}`;
}

export async function run(): Promise<void> {
  const url = new URL('../dist/loaders/index.js', import.meta.url).href;
  const loaders = (await import(url)) as typeof Loaders;
  const times: number[] = [];
  const rows = SIZES.map((n, i) => {
    const files = [
      { path: 'definition.yaml', text: DEFINITION },
      { path: 'bag.yaml', text: bag(n) },
    ];
    const start = performance.now();
    const { findings } = loaders.loadManifests(files);
    times.push(performance.now() - start);
    if (findings.some((f) => f.severity === 'error')) throw new Error('unexpected finding');
    return [formatCount(n), (times[i] as number).toFixed(0), growth(SIZES, times, i)];
  });
  printTable(
    'uniqueItems: true on a list of n objects (cosi definition)',
    ['items', 'load ms', 'growth'],
    rows,
  );
}
