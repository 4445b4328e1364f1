/**
 * Runs every `bench/*.bench.ts`, in name order: `npm run bench`, or `npm run bench -- state` to run
 * only the named ones. An argument that is a benchmark's whole name (`state`, not `etcd-state`)
 * picks that one; any other picks every benchmark whose name contains it (`etcd`: both etcd
 * benchmarks). `--quick` runs the small sizes only.
 *
 * A benchmark file exports `run(): Promise<void>`, which measures and prints its own table.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface BenchmarkModule {
  run(): Promise<void>;
}

const dir = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const SUFFIX = '.bench.ts';
const names = readdirSync(dir)
  .filter((file) => file.endsWith(SUFFIX))
  .map((file) => file.slice(0, -SUFFIX.length))
  .sort();
const picks = (filter: string): string[] =>
  names.includes(filter) ? [filter] : names.filter((name) => name.includes(filter));
const chosen = new Set(filters.length === 0 ? names : filters.flatMap(picks));
const files = names.filter((name) => chosen.has(name)).map((name) => `${name}${SUFFIX}`);

if (files.length === 0) {
  process.stderr.write(`no benchmark matches ${filters.join(', ')}\n`);
  process.exitCode = 2;
}
if (typeof gc !== 'function') {
  process.stderr.write('note: run node with --expose-gc for steadier figures\n');
}
process.stdout.write(`node ${process.version}, ${process.platform}/${process.arch}\n\n`);

for (const file of files) {
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as BenchmarkModule;
  await mod.run();
}
