/**
 * `cosi apply` on a generated tree: 10,000 resources (VMs and Hosts) in 1,000 files through the
 * vm-network controllers. Prints a breakdown (read, parse + validate, converge, render) next to the
 * bare `yaml` parse of the same files, measured in the same run, and the whole command's time.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FILES, generateTree, PER_FILE } from './vm-network-tree.js';
import { parseAllDocuments } from 'yaml';
import type * as Cosi from '../src/index.js';
import type * as Loaders from '../src/loaders/index.js';
import type * as ProgramModule from '../src/cli/program.js';
import type * as RenderModule from '../src/cli/render/resources.js';
import type * as ProjectModule from '../src/app/project.js';
import type * as ConvergeModule from '../src/app/converge-project.js';
import type * as SnapshotModule from '../src/engine/state/state-snapshot.js';
import type * as QueryModule from '../src/cli/resource-query.js';

const dist = (p: string): string => new URL(`../dist/${p}`, import.meta.url).href;

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
  const { selectResources } = (await import(dist('cli/resource-query.js'))) as typeof QueryModule;
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-apply-bench-'));
  try {
    const paths = await generateTree(dir);
    const config = path.resolve('fixtures/vm-network/cosi.config.ts');
    const loaded = await loaders.loadConfig(config, { modules: { cosi } });

    // Warm-up: the JIT, jiti's transpile cache and the file system cache.
    await runCli(['apply', '-f', dir, '--config', config, '-q'], silentIo());

    const t0 = performance.now();
    const files = await Promise.all(
      paths.map(async (p) => ({ path: p, text: await readFile(p, 'utf8') })),
    );
    const t1 = performance.now();
    for (const f of files) for (const d of parseAllDocuments(f.text)) d.toJS();
    const t2 = performance.now();
    const result = loaders.loadManifests(files, { definitions: loaded.definitions });
    const t3 = performance.now();
    if (loaders.hasErrors(result.findings) || result.resources.length !== FILES * PER_FILE) {
      throw new Error(`the generated tree did not load: ${result.findings.length} findings`);
    }

    const project = await openProject(loaded, result, { cwd: dir });
    const t4 = performance.now();
    const report = await convergeProject(project, { maxWrites: Number.POSITIVE_INFINITY });
    const t5 = performance.now();
    if (!report.converged) throw new Error(`did not converge: ${report.reason}`);
    const snapshot = await takeSnapshot(project.state);
    const groups = selectResources({ project, snapshot }, {});
    const table = renderResources(groups, 'table');
    const t6 = performance.now();
    await project.runtime.stop();

    const whole = performance.now();
    const code = await runCli(['apply', '-f', dir, '--config', config, '-q'], silentIo());
    const wholeMs = performance.now() - whole;
    if (code !== 0) throw new Error(`cosi apply exited ${code}`);

    const resources = snapshot.resources.length;
    const parse = t2 - t1;
    const rows: [string, number][] = [
      ['read files', t1 - t0],
      ['bare yaml parse (baseline)', parse],
      ['load + validate (cosi)', t3 - t2],
      ['converge', t5 - t4],
      ['render table', t6 - t5],
    ];
    const lines = [
      `apply: ${(FILES * PER_FILE).toLocaleString('en-US')} resources in ${FILES.toLocaleString('en-US')} files through the vm-network controllers (${resources.toLocaleString('en-US')} resources after converging, ${table.length.toLocaleString('en-US')} bytes of table)`,
      '',
      ...rows.map(([name, ms]) => `  ${name.padEnd(28)} ${ms.toFixed(0).padStart(6)} ms`),
      '',
      `  load + validate / bare parse: ${((t3 - t2) / parse).toFixed(2)}x`,
      `  whole \`cosi apply\` (in-process, config included): ${wholeMs.toFixed(0)} ms`,
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function silentIo(): Parameters<typeof ProgramModule.runCli>[1] {
  return {
    stdout: { write: () => true },
    stderr: { write: () => true },
    cwd: process.cwd(),
    env: {},
    isTTY: false,
  };
}
