/**
 * `cosi/testing` on generated vm-network trees (2,000 and 10,000 resources; --quick: 1,000 and
 * 4,000): opening a test project and converging it, against the CLI's own path on the same tree
 * (openProject + convergeProject on the plain in-memory state, unrecorded): the test project's
 * state goes through the fault injector (no synchronous fast path) and records every reconcile.
 * Then 10 one-VM applies, each converged: what a scenario's apply step costs at that size.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { formatCount, growth, printTable, sizes } from './harness.js';
import { generateTree } from './vm-network-tree.js';
import type * as Cosi from '../src/index.js';
import type * as Loaders from '../src/loaders/index.js';
import type * as ProjectModule from '../src/app/project.js';
import type * as ConvergeModule from '../src/app/converge-project.js';
import type * as Testing from '../src/testing/index.js';

const SIZES = sizes([2_000, 10_000], [1_000, 4_000]);
const APPLIES = 10;
const dist = (p: string): string => new URL(`../dist/${p}`, import.meta.url).href;

export async function run(): Promise<void> {
  const cosi = (await import(dist('index.js'))) as typeof Cosi;
  const loaders = (await import(dist('loaders/index.js'))) as typeof Loaders;
  const { openProject } = (await import(dist('app/project.js'))) as typeof ProjectModule;
  const { convergeProject } = (await import(
    dist('app/converge-project.js')
  )) as typeof ConvergeModule;
  const testing = (await import(dist('testing/index.js'))) as typeof Testing;
  const config = path.resolve('fixtures/vm-network/cosi.config.ts');
  const loaded = await loaders.loadConfig(config, { modules: { cosi } });
  const rows: string[][] = [];
  const base: number[] = [];
  const test: number[] = [];
  const apply: number[] = [];
  // The first size is preceded by a small unreported one: module loading and JIT warm-up.
  for (const n of [200, ...SIZES]) {
    const warmUp = n === 200;
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-bench-testing-'));
    try {
      await generateTree(dir, n);
      const t0 = performance.now();
      const read = await loaders.readManifests([dir], {
        cwd: dir,
        definitions: loaded.definitions,
      });
      const project = await openProject(loaded, read, { cwd: dir, stable: true });
      const baseline = await convergeProject(project);
      const t1 = performance.now();
      await project.runtime.stop();
      const t2 = performance.now();
      const tested = await testing.createTestProject({ cwd: dir, config, manifests: dir });
      const report = await tested.converge();
      const t3 = performance.now();
      if (!baseline.converged || !report.converged) throw new Error('the tree did not converge');
      for (let i = 0; i < APPLIES; i++) {
        await tested.apply({
          metadata: { type: 'vm', id: `extra-${i}` },
          spec: { cpus: 1, image: 'image-0', host: 'host-0' },
        });
        await tested.converge();
      }
      const t4 = performance.now();
      await tested.close();
      if (warmUp) continue;
      base.push(t1 - t0);
      test.push(t3 - t2);
      apply.push((t4 - t3) / APPLIES);
      const i = base.length - 1;
      rows.push([
        formatCount(n),
        (t1 - t0).toFixed(0),
        (t3 - t2).toFixed(0),
        `${((t3 - t2) / (t1 - t0)).toFixed(2)}x`,
        ((t4 - t3) / APPLIES).toFixed(1),
        growth(SIZES, test, i),
        growth(SIZES, apply, i),
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  printTable(
    'cosi/testing: open + converge a vm-network tree, and one-VM applies',
    [
      'size',
      'CLI path ms',
      'test project ms',
      'test / CLI',
      'ms per apply',
      'test growth',
      'apply growth',
    ],
    rows,
    [
      'CLI path: readManifests + openProject + convergeProject (in-memory state, unrecorded).',
      'Test project: createTestProject (fault-injecting state, recorded) + converge.',
      'An apply compares every manifest and rewrites the one that changed.',
    ],
  );
}
