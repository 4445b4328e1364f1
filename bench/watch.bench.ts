/**
 * `cosi watch` on generated trees of 1,000, 10,000 and 50,000 resources (VMs and Hosts, 10 per
 * file) through the vm-network controllers. For each, one file is edited (a VM changes its image,
 * so its NetworkConfig changes too) and the bench times the whole round (read and parse the
 * edited file, with no walk since the watcher saw no file added or removed; resolve it; apply
 * the difference; converge; build the round view and render the screen) and the incremental load
 * alone, best of several edits. The targets: the 10k round under 20 ms, the 10k
 * incremental load under 3 ms, and the 50k figures within 2x of the 1k ones.
 */
import { EventEmitter } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { generateTree } from './vm-network-tree.js';
import type * as SessionModule from '../src/app/watch-session.js';
import type * as ReaderModule from '../src/loaders/manifest-reader.js';
import type * as RoundViewModule from '../src/cli/ui/round-view.js';
import type * as WatchAppModule from '../src/cli/ui/watch-app.js';
import type { FileEvent, WatchFiles } from '../src/app/file-events.js';

const EDITS = 7;
const SIZES = [1_000, 10_000, 50_000];

const dist = (p: string): string => new URL(`../dist/${p}`, import.meta.url).href;

interface Figures {
  readonly resources: number;
  readonly startMs: number;
  readonly roundMs: number;
  readonly loadMs: number;
  readonly renderMs: number;
  readonly last: SessionModule.WatchRound | undefined;
}

export async function run(): Promise<void> {
  const figures: Figures[] = [];
  for (const resources of SIZES) figures.push(await measure(resources));
  const row = (f: Figures): string =>
    `  ${f.resources.toLocaleString('en-US').padStart(7)}   ${f.startMs.toFixed(0).padStart(7)} ms   ${f.roundMs.toFixed(1).padStart(6)} ms   ${f.loadMs.toFixed(2).padStart(6)} ms   ${f.renderMs.toFixed(2).padStart(6)} ms   (read ${f.last?.cost.read ?? 0}, parsed ${f.last?.cost.parsed ?? 0}, ${f.last?.report?.writes ?? 0} writes)`;
  const small = figures[0] as Figures;
  const large = figures.at(-1) as Figures;
  const lines = [
    `watch: one file edited in trees of ${SIZES.map((s) => s.toLocaleString('en-US')).join(', ')} resources, vm-network controllers (best of ${EDITS - 1} edits)`,
    '',
    '  resources   first round   whole round   incremental load   render',
    ...figures.map(row),
    '',
    `  50k / 1k: whole round ${(large.roundMs / small.roundMs).toFixed(2)}x, incremental load ${(large.loadMs / small.loadMs).toFixed(2)}x`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function measure(resources: number): Promise<Figures> {
  // As bin/cosi.js runs it: React's production build.
  process.env.NODE_ENV ??= 'production';
  const { createElement } = await import('react');
  const { render } = await import('ink');
  const { startWatchSession } = (await import(
    dist('app/watch-session.js')
  )) as typeof SessionModule;
  const { ManifestReader } = (await import(
    dist('loaders/manifest-reader.js')
  )) as typeof ReaderModule;
  const { createRoundViews } = (await import(
    dist('cli/ui/round-view.js')
  )) as typeof RoundViewModule;
  const { WatchApp } = (await import(dist('cli/ui/watch-app.js'))) as typeof WatchAppModule;
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-watch-bench-'));
  try {
    const paths = await generateTree(dir, resources);
    const config = path.resolve('fixtures/vm-network/cosi.config.ts');

    let emit: ((event: FileEvent) => void) | undefined;
    const watch: WatchFiles = (_paths, onEvent) => {
      emit = onEvent;
      return { close: () => Promise.resolve() };
    };
    const toView = createRoundViews();
    const rounds: SessionModule.WatchRound[] = [];
    let renderMs = Number.POSITIVE_INFINITY;
    const noop = (): void => undefined;
    // As the watch screen does (src/cli/ui/watch-screen.tsx): one ink app mounted for the whole
    // session, re-rendered with each round's view, so React reconciles only what changed. `debug`
    // turns off ink's 30 fps throttle, which would otherwise draw a frame that follows another
    // within 33 ms after the round, outside the time measured; it writes the whole frame where
    // the screen writes only the changed lines.
    const terminal = createFakeTerminal(120, 40);
    const app = (round: RoundViewModule.RoundView | undefined) =>
      createElement(WatchApp, {
        round,
        rows: terminal.stdout.rows,
        columns: terminal.stdout.columns,
        paused: false,
        onQuit: noop,
        onTogglePause: noop,
        onRerun: noop,
      });
    const instance = render(app(undefined), {
      stdout: terminal.stdout as unknown as NodeJS.WriteStream,
      stdin: terminal.stdin as unknown as NodeJS.ReadStream,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    });
    const started = performance.now();
    const session = await startWatchSession({
      files: [dir],
      config,
      cwd: process.cwd(),
      watch,
      debounceMs: 0,
      // What the screen does with a round: its view, and one frame of the terminal.
      onRound: (round) => {
        rounds.push(round);
        const t0 = performance.now();
        const frames = terminal.stdout.frames;
        instance.rerender(app(toView(round)));
        if (terminal.stdout.frames === frames) throw new Error('the round drew no frame');
        if (rounds.length > 2) renderMs = Math.min(renderMs, performance.now() - t0);
      },
    });
    const startMs = performance.now() - started;
    if (!rounds[0]?.report?.converged) throw new Error('the generated tree did not converge');

    const target = paths[Math.floor(paths.length / 2)] as string;
    const original = await readFile(target, 'utf8');
    let roundMs = Number.POSITIVE_INFINITY;
    let last: SessionModule.WatchRound | undefined;
    for (let i = 0; i < EDITS; i++) {
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
      if (i > 0) roundMs = Math.min(roundMs, ms);
    }
    const definitions = rounds[0].project?.config?.definitions ?? [];
    await session.close();
    instance.unmount();

    // The loader alone: an incremental read after a one-file edit.
    const reader = new ManifestReader([dir], { definitions });
    await reader.read();
    let loadMs = Number.POSITIVE_INFINITY;
    for (let i = 0; i < EDITS; i++) {
      await writeFile(target, original.replace(/image: image-\d/, `image: again-${i}`));
      const t0 = performance.now();
      await reader.read([target], { contentOnly: true });
      if (i > 0) loadMs = Math.min(loadMs, performance.now() - t0);
    }
    return { resources, startMs, roundMs, loadMs, renderMs, last };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A terminal of a fixed size that keeps only the last frame ink drew, and a keyboard nobody
 * types on (the app's key handler still sets it up, as on a real terminal).
 */
function createFakeTerminal(columns: number, rows: number) {
  const stdout = Object.assign(new EventEmitter(), {
    columns,
    rows,
    isTTY: true,
    frames: 0,
    lastFrame: '',
    write(frame: string): boolean {
      stdout.frames++;
      stdout.lastFrame = frame;
      return true;
    },
  });
  const stdin = Object.assign(new EventEmitter(), {
    isTTY: true,
    setEncoding: () => stdin,
    setRawMode: () => stdin,
    resume: () => stdin,
    pause: () => stdin,
    ref: () => stdin,
    unref: () => stdin,
    read: (): null => null,
  });
  return { stdout, stdin };
}
