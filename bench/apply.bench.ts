/**
 * `cosi apply` on generated trees of VMs and Hosts through the vm-network controllers, at 10,000
 * and 50,000 resources (--quick: 2,000 and 10,000), 10 per file.
 *
 * For each size, in process: reading the files, the bare `yaml` parse of them (the baseline),
 * load + validate, converge and rendering the table, with the growth of each from the size
 * before. At the largest size, the whole command as its own process (`bin/cosi.js apply`)
 * against a process that walks and parses the same tree: wall time and peak RSS of each, medians
 * of three processes.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTree } from './vm-network-tree.js';
import { parseAllDocuments } from 'yaml';
import {
  formatCount,
  growth,
  medianRun,
  printTable,
  runProcess,
  sizes,
  type ProcessRun,
} from './harness.js';
import type * as Cosi from '../src/index.js';
import type * as Loaders from '../src/loaders/index.js';
import type * as ProgramModule from '../src/cli/program.js';
import type * as RenderModule from '../src/cli/render/resources.js';
import type * as ProjectModule from '../src/app/project.js';
import type * as ConvergeModule from '../src/app/converge-project.js';
import type * as SnapshotModule from '../src/engine/state/state-snapshot.js';
import type * as QueryModule from '../src/app/resource-query.js';

const SIZES = sizes([10_000, 50_000], [2_000, 10_000]);
const dist = (p: string): string => new URL(`../dist/${p}`, import.meta.url).href;
const benchDir = path.dirname(fileURLToPath(import.meta.url));

interface Phases {
  read: number;
  parse: number;
  load: number;
  converge: number;
  render: number;
  resourcesAfter: number;
}

export async function run(): Promise<void> {
  const cosi = (await import(dist('index.js'))) as typeof Cosi;
  const loaders = (await import(dist('loaders/index.js'))) as typeof Loaders;
  const { runCli } = (await import(dist('cli/program.js'))) as typeof ProgramModule;
  const { renderResources } = (await import(
    dist('cli/render/resources.js')
  )) as typeof RenderModule;
  const { openProject } = (await import(dist('app/project.js'))) as typeof ProjectModule;
  const { convergeProject } = (await import(
    dist('app/converge-project.js')
  )) as typeof ConvergeModule;
  const { takeSnapshot } = (await import(
    dist('engine/state/state-snapshot.js')
  )) as typeof SnapshotModule;
  const { selectResources } = (await import(dist('app/resource-query.js'))) as typeof QueryModule;
  const config = path.resolve('fixtures/vm-network/cosi.config.ts');
  const loaded = await loaders.loadConfig(config, { modules: { cosi } });

  async function phases(dir: string, paths: readonly string[], n: number): Promise<Phases> {
    const t0 = performance.now();
    const files = await Promise.all(
      paths.map(async (p) => ({ path: p, text: await readFile(p, 'utf8') })),
    );
    const t1 = performance.now();
    for (const f of files) for (const d of parseAllDocuments(f.text)) d.toJS();
    const t2 = performance.now();
    const result = loaders.loadManifests(files, { definitions: loaded.definitions });
    const t3 = performance.now();
    if (loaders.hasErrors(result.findings) || result.resources.length !== n) {
      throw new Error(`the generated tree did not load: ${result.findings.length} findings`);
    }
    const project = await openProject(loaded, result, { cwd: dir });
    const t4 = performance.now();
    const report = await convergeProject(project, { maxWrites: Number.POSITIVE_INFINITY });
    const t5 = performance.now();
    if (!report.converged) throw new Error(`did not converge: ${report.reason}`);
    const snapshot = await takeSnapshot(project.state);
    renderResources(selectResources({ project, snapshot }, {}), 'table');
    const t6 = performance.now();
    await project.runtime.stop();
    return {
      read: t1 - t0,
      parse: t2 - t1,
      load: t3 - t2,
      converge: t5 - t4,
      render: t6 - t5,
      resourcesAfter: snapshot.resources.length,
    };
  }

  const results: Phases[] = [];
  let whole: { cosi: ProcessRun; walk: ProcessRun } | undefined;
  for (const [i, n] of SIZES.entries()) {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-apply-bench-'));
    try {
      const paths = await generateTree(dir, n);
      // Warm-up: the JIT, jiti's transpile cache and the file system cache.
      if (i === 0) await runCli(['apply', '-f', dir, '--config', config, '-q'], silentIo());
      results.push(await phases(dir, paths, n));
      if (i === SIZES.length - 1) {
        // Medians of three processes each, alternating, so that a busy moment does not decide.
        const walks: ProcessRun[] = [];
        const clis: ProcessRun[] = [];
        for (let run = 0; run < PROCESS_RUNS; run++) {
          walks.push(await runProcess([path.join(benchDir, 'walk-and-parse.mjs'), dir]));
          clis.push(
            await runProcess([
              path.resolve('bin/cosi.js'),
              'apply',
              '-f',
              dir,
              '--config',
              config,
              '-q',
            ]),
          );
        }
        whole = { cosi: medianRun(clis), walk: medianRun(walks) };
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  const rows: string[][] = [];
  const phaseNames: [keyof Phases, string][] = [
    ['read', 'read files'],
    ['parse', 'bare yaml parse (baseline)'],
    ['load', 'load + validate (cosi)'],
    ['converge', 'converge'],
    ['render', 'render table'],
  ];
  for (const [key, name] of phaseNames) {
    const times = results.map((r) => r[key]);
    results.forEach((r, i) => {
      rows.push([name, formatCount(SIZES[i]!), r[key].toFixed(0), growth(SIZES, times, i)]);
    });
  }
  const notes = results.map(
    (r, i) =>
      `  ${formatCount(SIZES[i]!)}: ${r.resourcesAfter.toLocaleString('en-US')} resources after converging; load + validate / bare parse ${(r.load / r.parse).toFixed(2)}x`,
  );
  if (whole) {
    const { cosi: c, walk: w } = whole;
    notes.push(
      '',
      `  at ${formatCount(SIZES.at(-1)!)}, each its own process (medians of ${PROCESS_RUNS}):`,
      `    walk + parse the tree  ${w.ms.toFixed(0).padStart(7)} ms  ${mb(w.maxRss)} MB peak RSS`,
      `    cosi apply             ${c.ms.toFixed(0).padStart(7)} ms  ${mb(c.maxRss)} MB peak RSS`,
      `    cosi apply / walk + parse: ${(c.ms / w.ms).toFixed(1)}x time, ${(c.maxRss / w.maxRss).toFixed(1)}x RSS`,
    );
  }
  printTable(
    'apply: VMs and Hosts through the vm-network controllers, 10 per file',
    ['phase', 'size', 'ms', 'growth'],
    rows,
    notes,
  );
}

/** Processes of each kind at the largest size; their medians are reported. */
const PROCESS_RUNS = 3;

const mb = (kb: number): string => (kb / 1024).toFixed(0).padStart(5);

function silentIo(): Parameters<typeof ProgramModule.runCli>[1] {
  return {
    stdout: { write: () => true },
    stderr: { write: () => true },
    cwd: process.cwd(),
    env: {},
    isTTY: false,
  };
}
