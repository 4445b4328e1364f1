/**
 * What running the project's code in the supervised worker costs `cosi apply`: the whole command
 * (`bin/cosi.js apply -f DIR`, the worker, its code cache) against the same command run on the
 * main thread (`runCli` from `dist/cli/program.js`, as `apply` ran before issue 31), on
 * generated vm-network trees of 1,000, 5,000 and 10,000 manifests (--quick: the first two).
 * Each side is a fresh process; the sides alternate; medians of five, wall and CPU time.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { medianRun, printTable, runProcess, sizes, type ProcessRun } from './harness.js';
import { generateTree } from './vm-network-tree.js';

const SIZES = sizes([1_000, 5_000, 10_000], [1_000, 5_000]);
const RUNS = 5;
const REPO = fileURLToPath(new URL('..', import.meta.url));
const CONFIG = path.join(REPO, 'fixtures/vm-network/cosi.config.ts');

export async function run(): Promise<void> {
  const rows: string[][] = [];
  for (const manifests of SIZES) {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-apply-worker-bench-'));
    try {
      await generateTree(dir, manifests);
      const mainThread = path.join(dir, 'apply-main-thread.mjs');
      await writeFile(mainThread, mainThreadScript(dir));
      const worker: ProcessRun[] = [];
      const thread: ProcessRun[] = [];
      for (let i = 0; i < RUNS; i++) {
        worker.push(
          await runProcess(
            [path.join(REPO, 'bin/cosi.js'), 'apply', '-f', dir, '--config', CONFIG],
            dir,
          ),
        );
        thread.push(await runProcess([mainThread], dir));
      }
      const w = medianRun(worker);
      const t = medianRun(thread);
      rows.push([
        manifests.toLocaleString('en-US'),
        `${w.ms.toFixed(0)} ms`,
        `${w.cpuMs.toFixed(0)} ms`,
        `${t.ms.toFixed(0)} ms`,
        `${t.cpuMs.toFixed(0)} ms`,
        `${(w.ms / t.ms).toFixed(2)}x / ${(w.cpuMs / t.cpuMs).toFixed(2)}x`,
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  printTable(
    `cosi apply, whole processes: the project's code in the supervised worker vs on the main thread (medians of ${RUNS})`,
    ['manifests', 'worker: wall', 'cpu', 'baseline main thread: wall', 'cpu', 'ratio wall / cpu'],
    rows,
  );
}

/** `cosi apply -f DIR` on the main thread, its output dropped as the worker side's is. */
function mainThreadScript(dir: string): string {
  const program = new URL('../dist/cli/program.js', import.meta.url).href;
  return `
    process.env.NODE_ENV ??= 'production';
    const { runCli } = await import(${JSON.stringify(program)});
    const io = {
      stdout: { write: () => true },
      stderr: process.stderr,
      cwd: ${JSON.stringify(dir)},
      env: process.env,
      isTTY: false,
      onInterrupt: () => () => undefined,
      onTerminate: () => () => undefined,
    };
    const code = await runCli(['apply', '-f', ${JSON.stringify(dir)}, '--config', ${JSON.stringify(CONFIG)}], io);
    if (code !== 0) throw new Error('apply exited ' + code);
  `;
}
