/**
 * `cosi watch` on one manifest file of 1,000, 5,000 and 20,000 documents: VMs and Hosts through
 * the vm-network controllers, and Kubernetes Deployments (no controller: the load and the apply
 * alone). One value of one document in the middle of the file is edited, and the bench times
 * the round through the watch session (read the file, load it, apply the difference, converge,
 * build the round), wall and CPU time, the median of several edits (the first edit included:
 * it is the one a user waits for first). A round should cost what the edit changed, not the
 * file: the growth from 1k to 20k should stay far under the 20x of the file.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type * as SessionModule from '../src/app/watch-session.js';
import type { FileEvent, WatchFiles } from '../src/app/file-events.js';

const EDITS = 9;
const SIZES = [1_000, 5_000, 20_000];

const dist = (p: string): string => new URL(`../dist/${p}`, import.meta.url).href;

interface Project {
  readonly name: string;
  readonly config?: string;
  /** The file's text, and the document edited with its edited text. */
  readonly documents: (count: number) => string[];
  readonly edit: (document: string, round: number) => string;
}

const PROJECTS: Project[] = [
  {
    name: 'vm-network',
    config: 'fixtures/vm-network/cosi.config.ts',
    documents: (count) =>
      Array.from({ length: count }, (_, n) =>
        n % 100 === 0
          ? `metadata:\n  type: host\n  id: host-${n}\n  labels:\n    zone: z${n % 7}\nspec:\n  cpus: 64\n  zone: z${n % 7}\n`
          : `metadata:\n  type: vm\n  id: vm-${n}\n  labels:\n    tier: t${n % 3}\nspec:\n  cpus: ${1 + (n % 8)}\n  image: image-${n % 5}\n  host: host-${n - (n % 100)}\n`,
      ),
    edit: (document, round) => document.replace(/image: \S+/, `image: edited-${round}`),
  },
  {
    name: 'Deployments',
    documents: (count) =>
      Array.from(
        { length: count },
        (_, n) =>
          `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d-${n}\n  namespace: default\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: d-${n}\n  template:\n    metadata:\n      labels:\n        app: d-${n}\n    spec:\n      containers:\n        - name: c\n          image: nginx:1.${n % 20}\n`,
      ),
    edit: (document, round) => document.replace(/image: \S+/, `image: nginx:2.${round}`),
  },
];

interface Figures {
  readonly documents: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly firstMs: number;
}

export async function run(): Promise<void> {
  const lines = [
    `watch: one value edited in one file of ${SIZES.map((s) => s.toLocaleString('en-US')).join(' / ')} documents (median of ${EDITS} edits)`,
    '',
  ];
  for (const project of PROJECTS) {
    const figures: Figures[] = [];
    for (const documents of SIZES) figures.push(await measure(project, documents));
    const small = figures[0] as Figures;
    const large = figures.at(-1) as Figures;
    lines.push(`  ${project.name}: documents   round (wall)   round (CPU)   first edit`);
    for (const f of figures) {
      lines.push(
        `  ${f.documents.toLocaleString('en-US').padStart(20)}   ${f.wallMs.toFixed(1).padStart(9)} ms   ${f.cpuMs.toFixed(1).padStart(8)} ms   ${f.firstMs.toFixed(0).padStart(7)} ms`,
      );
    }
    lines.push(
      `  growth ${(large.documents / small.documents).toFixed(0)}x documents: round ${(large.wallMs / small.wallMs).toFixed(2)}x wall, ${(large.cpuMs / small.cpuMs).toFixed(2)}x CPU`,
      '',
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function measure(project: Project, count: number): Promise<Figures> {
  const { startWatchSession } = (await import(
    dist('app/watch-session.js')
  )) as typeof SessionModule;
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-watch-one-file-'));
  try {
    const documents = project.documents(count);
    const file = path.join(dir, 'all.yaml');
    await writeFile(file, documents.join('---\n'));
    let emit: ((event: FileEvent) => void) | undefined;
    const watch: WatchFiles = (_paths, onEvent) => {
      emit = onEvent;
      return { close: () => Promise.resolve() };
    };
    const rounds: SessionModule.WatchRound[] = [];
    const session = await startWatchSession({
      files: [dir],
      ...(project.config ? { config: path.resolve(project.config) } : {}),
      cwd: process.cwd(),
      watch,
      debounceMs: 0,
      onRound: (round) => rounds.push(round),
    });
    if (!rounds[0]?.applied) throw new Error(`the ${project.name} file did not load`);
    const middle = Math.floor(count / 2) + 1;
    const walls: number[] = [];
    const cpus: number[] = [];
    for (let i = 0; i < EDITS; i++) {
      const edited = [...documents];
      edited[middle] = project.edit(documents[middle] as string, i);
      await writeFile(file, edited.join('---\n'));
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      emit?.({ kind: 'change', path: file });
      await new Promise((resolve) => setImmediate(resolve));
      await session.idle();
      const cpu = process.cpuUsage(c0);
      walls.push(performance.now() - t0);
      cpus.push((cpu.user + cpu.system) / 1000);
      const last = rounds.at(-1);
      if (!last?.applied || (last.changes?.updated.length ?? 0) < 1) {
        throw new Error(`the ${project.name} edit did not apply`);
      }
    }
    await session.close();
    return { documents: count, wallMs: median(walls), cpuMs: median(cpus), firstMs: walls[0] ?? 0 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
