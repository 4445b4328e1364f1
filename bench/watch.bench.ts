/**
 * `cosi watch` on a generated tree: 10,000 resources (VMs and Hosts) in 1,000 files through the
 * vm-network controllers. Times one round after a one-file edit (walk, read and parse the edited
 * file, resolve, apply the difference, converge) against a full reload of the same tree (read
 * and parse every file), measured in the same run, and prints both and the ratio.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FILES, generateTree, PER_FILE } from './vm-network-tree.js';
import type * as SessionModule from '../src/cli/watch/watch-session.js';
import type * as ReaderModule from '../src/loaders/manifest-reader.js';
import type { FileEvent, WatchFiles } from '../src/cli/watch/file-watcher.js';

const EDITS = 5;

const dist = (p: string): string => new URL(`../dist/${p}`, import.meta.url).href;

export async function run(): Promise<void> {
  const { startWatchSession } = (await import(
    dist('cli/watch/watch-session.js')
  )) as typeof SessionModule;
  const { ManifestReader, readManifests } = (await import(
    dist('loaders/manifest-reader.js')
  )) as typeof ReaderModule;
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-watch-bench-'));
  try {
    const paths = await generateTree(dir);
    const config = path.resolve('fixtures/vm-network/cosi.config.ts');

    let emit: ((event: FileEvent) => void) | undefined;
    const watch: WatchFiles = (_paths, onEvent) => {
      emit = onEvent;
      return { close: () => Promise.resolve() };
    };
    const rounds: SessionModule.WatchRound[] = [];
    const started = performance.now();
    const session = await startWatchSession({
      files: [dir],
      config,
      cwd: process.cwd(),
      watch,
      debounceMs: 0,
      onRound: (round) => rounds.push(round),
    });
    const startMs = performance.now() - started;
    if (!rounds[0]?.report?.converged) throw new Error('the generated tree did not converge');

    // One VM file edited: a VM changes its image, so its NetworkConfig changes too.
    const target = paths[Math.floor(paths.length / 2)] as string;
    const original = await readFile(target, 'utf8');
    let best = Number.POSITIVE_INFINITY;
    let last: SessionModule.WatchRound | undefined;
    for (let i = 0; i <= EDITS; i++) {
      await writeFile(target, original.replace(/image: image-\d/, `image: edited-${i}`));
      const t0 = performance.now();
      emit?.({ kind: 'change', path: target });
      await new Promise((resolve) => setImmediate(resolve));
      await session.idle();
      const ms = performance.now() - t0;
      last = rounds.at(-1);
      if (!last?.report?.converged || last.changes?.updated.length !== 1) {
        throw new Error('the edit did not apply as one update');
      }
      if (i > 0) best = Math.min(best, ms);
    }
    const definitions = rounds[0].project?.config?.definitions ?? [];
    await session.close();

    // The full reload a watcher without a cache would do: read and load every file again.
    let fullBest = Number.POSITIVE_INFINITY;
    for (let i = 0; i <= 2; i++) {
      const t0 = performance.now();
      const full = await readManifests([dir], { definitions });
      const ms = performance.now() - t0;
      if (full.resources.length !== FILES * PER_FILE) {
        throw new Error('the full reload lost resources');
      }
      if (i > 0) fullBest = Math.min(fullBest, ms);
    }

    // The loader alone: an incremental read after the edit, against the full read above.
    const reader = new ManifestReader([dir], { definitions });
    await reader.read();
    await writeFile(target, original);
    let readBest = Number.POSITIVE_INFINITY;
    for (let i = 0; i < EDITS; i++) {
      await writeFile(target, original.replace(/image: image-\d/, `image: again-${i}`));
      const t0 = performance.now();
      await reader.read([target]);
      readBest = Math.min(readBest, performance.now() - t0);
    }

    const lines = [
      `watch: ${(FILES * PER_FILE).toLocaleString('en-US')} resources in ${FILES.toLocaleString('en-US')} files, vm-network controllers, one file edited (best of ${EDITS})`,
      '',
      `  first round (load everything, converge)  ${startMs.toFixed(0).padStart(6)} ms`,
      `  one-file edit: whole round               ${best.toFixed(1).padStart(6)} ms  (read ${last?.cost.read ?? 0}, parsed ${last?.cost.parsed ?? 0}, ${last?.report?.writes ?? 0} writes)`,
      `  one-file edit: incremental load only     ${readBest.toFixed(1).padStart(6)} ms`,
      `  full reload (readManifests, baseline)    ${fullBest.toFixed(0).padStart(6)} ms`,
      '',
      `  full reload / one-file round: ${(fullBest / best).toFixed(1)}x`,
      `  full reload / incremental load: ${(fullBest / readBest).toFixed(1)}x`,
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
