/**
 * `cosi graph --resources -o svg` on generated vm-network trees at 100 and 300 manifest
 * resources (--quick: 50 and 100): the in-process WebAssembly Graphviz laying out the DOT output,
 * against the native `dot -Tsvg` of the same DOT (the baseline, when graphviz is installed),
 * best of two each. Graphviz's layout grows faster than linear in the edges, natively too: that
 * is what --focus and -t are for on a large graph.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { generateTree } from './vm-network-tree.js';
import { formatCount, growth, printTable, sizes } from './harness.js';
import type * as ProgramModule from '../src/cli/program.js';
import type * as SvgModule from '../src/cli/render/graph/svg.js';

const SIZES = sizes([100, 300], [50, 100]);
const dist = (p: string): string => new URL(`../dist/${p}`, import.meta.url).href;

export async function run(): Promise<void> {
  const { runCli } = (await import(dist('cli/program.js'))) as typeof ProgramModule;
  const { layoutDotAsSvg } = (await import(dist('cli/render/graph/svg.js'))) as typeof SvgModule;
  const config = path.resolve('fixtures/vm-network/cosi.config.ts');
  const hasDot = spawnSync('dot', ['-V']).status === 0;
  const bestOf2 = async (work: () => Promise<unknown>): Promise<number> => {
    const times: number[] = [];
    for (let i = 0; i < 2; i++) {
      const start = performance.now();
      await work();
      times.push(performance.now() - start);
    }
    return Math.min(...times);
  };
  await layoutDotAsSvg('digraph { a -> b }'); // loads and compiles the WebAssembly once
  const rows: string[][] = [];
  const times: number[] = [];
  for (const [i, n] of SIZES.entries()) {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-graph-svg-bench-'));
    try {
      await generateTree(dir, n);
      let dot = '';
      const io: Parameters<typeof runCli>[1] = {
        stdout: { write: (text: string) => (dot += text) },
        stderr: { write: () => true },
        cwd: process.cwd(),
        env: {},
        isTTY: false,
      };
      const argv = ['graph', '-f', dir, '--config', config, '--resources', '-q', '-o', 'dot'];
      if ((await runCli(argv, io)) !== 0) throw new Error('graph -o dot failed');
      const nodes = (dot.match(/\[label=/g) ?? []).length;
      const edges = (dot.match(/ -> /g) ?? []).length;
      const wasm = await bestOf2(() => layoutDotAsSvg(dot));
      times.push(wasm);
      const native = hasDot
        ? await bestOf2(async () => spawnSync('dot', ['-Tsvg'], { input: dot, maxBuffer: 1 << 30 }))
        : Number.NaN;
      rows.push([
        formatCount(n),
        `${nodes} / ${edges}`,
        `${wasm.toFixed(0)} ms`,
        hasDot ? `${native.toFixed(0)} ms` : 'no dot',
        hasDot ? `${(wasm / native).toFixed(2)}x` : '',
        growth(SIZES, times, i),
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  printTable(
    'graph -o svg: the WebAssembly Graphviz against native dot -Tsvg on the same DOT',
    ['manifest resources', 'nodes / edges', 'wasm', 'native dot', 'wasm / dot', 'growth'],
    rows,
  );
}
