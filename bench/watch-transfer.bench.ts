/**
 * The full-screen `watch`'s first round as it crosses from the worker thread to the screen: every
 * row of generated vm-network trees of 1,000, 5,000 and 10,000 manifests (about three resources
 * each once converged; --quick: the first two). The time is the encoding, a structured clone (what
 * `postMessage` does, both sides in one thread) and the decoding; the size is the clone's bytes.
 * Baseline, same run: the same view with every row whole, as it crossed before the rows were cut
 * to what the screen shows.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { serialize } from 'node:v8';
import { sizes } from './harness.js';
import { generateTree } from './vm-network-tree.js';
import type * as SessionModule from '../src/app/watch-session.js';
import type * as RoundViewModule from '../src/cli/ui/round-view.js';
import type * as TransferModule from '../src/cli/ui/round-view-transfer.js';

const SIZES = sizes([1_000, 5_000, 10_000], [1_000, 5_000]);
const TRIES = 3;

const dist = (p: string): string => new URL(`../dist/${p}`, import.meta.url).href;

export async function run(): Promise<void> {
  const lines = [
    `watch screen: the first round crossing from the worker, trees of ${SIZES.map((s) => s.toLocaleString('en-US')).join(', ')} manifests (best of ${TRIES})`,
    '',
    '  manifests   resources      cosi (bytes)           baseline: whole rows (bytes)   ratio',
  ];
  for (const manifests of SIZES) {
    const f = await measure(manifests);
    lines.push(
      `  ${manifests.toLocaleString('en-US').padStart(9)}   ${f.resources.toLocaleString('en-US').padStart(9)}   ${f.ms.toFixed(0).padStart(5)} ms (${mb(f.bytes)})   ${f.baselineMs.toFixed(0).padStart(5)} ms (${mb(f.baselineBytes)})${' '.repeat(16)}${(f.ms / f.baselineMs).toFixed(2)}x`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;

async function measure(manifests: number): Promise<{
  resources: number;
  ms: number;
  bytes: number;
  baselineMs: number;
  baselineBytes: number;
}> {
  const { startWatchSession } = (await import(
    dist('app/watch-session.js')
  )) as typeof SessionModule;
  const { createRoundViews } = (await import(
    dist('cli/ui/round-view.js')
  )) as typeof RoundViewModule;
  const { createRoundViewEncoder, createRoundViewDecoder } = (await import(
    dist('cli/ui/round-view-transfer.js')
  )) as typeof TransferModule;
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-watch-transfer-bench-'));
  try {
    await generateTree(dir, manifests);
    let first: SessionModule.WatchRound | undefined;
    const session = await startWatchSession({
      files: [dir],
      config: path.resolve('fixtures/vm-network/cosi.config.ts'),
      cwd: process.cwd(),
      watch: () => ({ close: () => Promise.resolve() }),
      onRound: (round) => (first ??= round),
    });
    await session.close();
    if (!first?.report?.converged) throw new Error('the generated tree did not converge');
    const view = createRoundViews()(first);
    const resources = view.groups.reduce((n, g) => n + g.rows.length, 0);

    /** Encodes, clones (as `postMessage` does) and decodes: best time, and the clone's bytes. */
    const cross = <T>(encode: () => T, decode: (sent: T) => RoundViewModule.RoundView) => {
      let best = Number.POSITIVE_INFINITY;
      let bytes = 0;
      for (let i = 0; i < TRIES; i++) {
        const t0 = performance.now();
        const transfer = encode();
        const shown = decode(structuredClone(transfer));
        best = Math.min(best, performance.now() - t0);
        if (shown.groups.reduce((n, g) => n + g.rows.length, 0) !== resources) {
          throw new Error('rows lost on the way');
        }
        bytes = serialize(transfer).length;
      }
      return { ms: best, bytes };
    };
    const cosi = cross(
      () => createRoundViewEncoder()(view),
      (sent) => createRoundViewDecoder()(sent),
    );
    // As before: the view without what stays in the worker, each row whole.
    const baseline = cross(
      () => {
        // eslint-disable-next-line @typescript-eslint/no-unused-vars
        const { groups, writes, record, graph, manifest, ...plain } = view;
        return {
          view: plain,
          groups: groups.map(({ rows, ...group }) => ({
            group,
            kept: new Int32Array(rows.length).fill(-1),
            added: rows,
          })),
        };
      },
      (sent): RoundViewModule.RoundView => ({
        ...sent.view,
        groups: sent.groups.map((g) => ({
          ...g.group,
          rows: Array.from(g.kept, (_, i) => g.added[i] as RoundViewModule.ResourceRow),
        })),
        writes: new Map(),
      }),
    );
    return {
      resources,
      ms: cosi.ms,
      bytes: cosi.bytes,
      baselineMs: baseline.ms,
      baselineBytes: baseline.bytes,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
