/**
 * `cosi diff`'s comparison and rendering, on a state of n manifest resources against manifests in
 * which a tenth changed one field, a twentieth are gone and a twentieth are new: the diff
 * (`diffAgainstState`) alone, and with every change rendered as a unified diff (text output).
 * Baseline, in the same run: a bare loop that looks each desired resource up in a Map and
 * compares its JSON, the least any diff must do. Sizes 1k, 10k, 100k (--quick: 1k, 10k); the
 * growth column shows the paths are linear.
 */
import { Chalk } from 'chalk';
import {
  formatCount,
  growth,
  loadBuiltCosi,
  printTable,
  sizes,
  type CosiModule,
} from './harness.js';
import type * as StateDiff from '../src/app/state-diff.js';
import type * as ResourceDiff from '../src/cli/render/resource-diff.js';
import type { AnyResource, Resource } from '../src/engine/resource/resource.js';

const SIZES = sizes([1_000, 10_000, 100_000], [1_000, 10_000]);

interface Input {
  readonly live: readonly Resource[];
  readonly desired: readonly AnyResource[];
}

function resource(cosi: CosiModule, i: number, cpus: number): AnyResource {
  return cosi.newResource(
    { namespace: 'default', type: 'VMs.example.org', id: `vm-${String(i).padStart(7, '0')}` },
    { cpus, image: 'debian', host: `node-${i % 50}`, disks: [{ size: 10 }, { size: 20 }] },
    { labels: { tier: i % 2 === 0 ? 'web' : 'db' } },
  );
}

function input(cosi: CosiModule, n: number): Input {
  const live: AnyResource[] = [];
  const desired: AnyResource[] = [];
  for (let i = 0; i < n; i++) {
    live.push(resource(cosi, i, 2));
    if (i % 20 === 0) continue; // removed
    desired.push(resource(cosi, i, i % 10 === 1 ? 4 : 2)); // a tenth changed
  }
  for (let i = n; i < n + n / 20; i++) desired.push(resource(cosi, i, 1)); // new
  return { live, desired };
}

function baseline({ live, desired }: Input): number {
  const byId = new Map<string, AnyResource>();
  for (const r of live) byId.set(r.metadata.id, r);
  let differ = 0;
  for (const r of desired) {
    const current = byId.get(r.metadata.id);
    if (
      current === undefined ||
      JSON.stringify([current.spec, current.metadata.labels]) !==
        JSON.stringify([r.spec, r.metadata.labels])
    )
      differ++;
  }
  return differ;
}

function best(work: () => unknown): number {
  let ms = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    work();
    ms = Math.min(ms, performance.now() - start);
  }
  return ms;
}

export async function run(): Promise<void> {
  const cosi = await loadBuiltCosi();
  const { diffAgainstState } = (await import(
    new URL('../dist/app/state-diff.js', import.meta.url).href
  )) as typeof StateDiff;
  const { renderDiffText } = (await import(
    new URL('../dist/cli/render/resource-diff.js', import.meta.url).href
  )) as typeof ResourceDiff;
  const plain = new Chalk({ level: 0 });
  const rows: string[][] = [];
  const times: number[] = [];
  for (const n of SIZES) {
    const data = input(cosi, n);
    const changes = diffAgainstState(data.desired, data.live);
    const loop = best(() => baseline(data));
    const diffOnly = best(() => diffAgainstState(data.desired, data.live));
    const rendered = best(() => renderDiffText(diffAgainstState(data.desired, data.live), plain));
    times.push(rendered);
    rows.push([
      formatCount(n),
      String(changes.length),
      loop.toFixed(1),
      diffOnly.toFixed(1),
      `${(diffOnly / loop).toFixed(1)}x`,
      rendered.toFixed(0),
      growth(SIZES, times, times.length - 1),
    ]);
  }
  printTable(
    'diff: manifests against a state (10% changed, 5% removed, 5% new)',
    ['size', 'changes', 'loop ms', 'diff ms', 'diff / loop', 'diff+text ms', 'growth (diff+text)'],
    rows,
  );
}
