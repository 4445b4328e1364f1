/**
 * A kro RGD against the same project written as a TypeScript controller (issue 32, point 5):
 * N instances of an RGD with 5 resources (a chain of ConfigMaps, each named after the one before,
 * and a status expression), at several sizes (100, 300 and 1,000 instances; --quick: 50 and 200),
 * against a queue controller in `cosi.config.ts` that writes the same ConfigMaps and status.
 * Times the convergence (the project opened, not yet run) and the whole run (config, load, open,
 * converge), best of three, the two sides alternating; prints the RGD / TypeScript ratio and the
 * growth per step. Then one instance edited in `cosi watch` on the largest tree: the whole round,
 * best of five edits. The issue's targets: converge within 3x of TypeScript at 1,000 instances,
 * a one-instance edit under 20 ms.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { FileEvent, WatchFiles } from '../src/app/file-events.js';
import type * as ConfigModule from '../src/app/project-config.js';
import type * as ManifestsModule from '../src/app/read-project-manifests.js';
import type * as SessionModule from '../src/app/project-session.js';
import type * as WatchModule from '../src/app/watch-session.js';
import { formatCount, printTable, sizes } from './harness.js';

const SIZES = sizes([100, 300, 1_000], [50, 200]);
const RUNS = 3;
const EDITS = 6;

const dist = (p: string): string => new URL(`../dist/${p}`, import.meta.url).href;

const RGD = `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: thing.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: Thing
    spec:
      name: string | required=true
      size: integer | default=1
    status:
      last: \${e.metadata.name}
  resources:
${['a', 'b', 'c', 'd', 'e']
  .map(
    (id, i) => `    - id: ${id}
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: ${i === 0 ? '${schema.spec.name}' : `\${${'abcde'[i - 1]}.metadata.name}`}-${id}
        data:
          size: \${string(schema.spec.size)}
          step: "${i}"`,
  )
  .join('\n')}
`;

/** The same controller in TypeScript: a queue controller writing the five ConfigMaps and status. */
const CONFIG = `import { defineConfig, defineResource, newResource } from 'cosi';

const Thing = defineResource({
  type: 'Things.kro.run',
  kubernetes: { apiVersion: 'kro.run/v1alpha1', kind: 'Thing', namespaced: true },
});

export default defineConfig({
  definitions: [Thing],
  controllers: [
    {
      name: 'things',
      settings: {
        inputs: [{ namespace: 'default', type: 'Things.kro.run', kind: 'primary' }],
        outputs: [
          { type: 'Things.kro.run', kind: 'shared' },
          { type: 'ConfigMaps.core', kind: 'shared' },
        ],
      },
      mapInput: () => [],
      async reconcile(rt, pointer) {
        const thing = await rt.find(pointer);
        if (thing === undefined) return;
        const spec = thing.spec.spec;
        let name = spec.name;
        for (const [i, id] of ['a', 'b', 'c', 'd', 'e'].entries()) {
          name = name + '-' + id;
          await rt.modify(newResource({ namespace: 'default', type: 'ConfigMaps.core', id: name }, {}), (draft) => {
            draft.spec = { data: { size: String(spec.size ?? 1), step: String(i) } };
            draft.metadata.labels = { 'kro.run/instance-name': thing.metadata.id, 'kro.run/resource-id': id };
          });
        }
        await rt.modify(newResource(thing.metadata, {}), (draft) => {
          draft.spec.status = { last: name, state: 'ACTIVE' };
        }, { noOwner: true });
      },
    },
  ],
});
`;

const instances = (n: number): string =>
  Array.from(
    { length: n },
    (_, i) => `apiVersion: kro.run/v1alpha1
kind: Thing
metadata:
  name: t${i}
spec:
  name: t${i}
  size: ${(i % 5) + 1}
`,
  ).join('---\n');

interface Modules {
  readonly loadProjectConfig: typeof ConfigModule.loadProjectConfig;
  readonly readProjectManifests: typeof ManifestsModule.readProjectManifests;
  readonly ProjectSession: typeof SessionModule.ProjectSession;
  readonly startWatchSession: typeof WatchModule.startWatchSession;
}

async function modules(): Promise<Modules> {
  const config = (await import(dist('app/project-config.js'))) as typeof ConfigModule;
  const manifests = (await import(dist('app/read-project-manifests.js'))) as typeof ManifestsModule;
  const session = (await import(dist('app/project-session.js'))) as typeof SessionModule;
  const watch = (await import(dist('app/watch-session.js'))) as typeof WatchModule;
  return {
    loadProjectConfig: config.loadProjectConfig,
    readProjectManifests: manifests.readProjectManifests,
    ProjectSession: session.ProjectSession,
    startWatchSession: watch.startWatchSession,
  };
}

/** One run of a project: the time to converge, and of the whole run; checks the outputs. */
async function runOnce(
  m: Modules,
  dir: string,
  n: number,
): Promise<{ converge: number; whole: number }> {
  const started = performance.now();
  const options = { cwd: dir, files: [dir], stable: true };
  const config = await m.loadProjectConfig(options);
  const manifests = await m.readProjectManifests(options, config);
  const session = await m.ProjectSession.open(config, manifests, options);
  try {
    const before = performance.now();
    const report = await session.converge();
    const converged = performance.now();
    const maps = await session.project.state.list({
      namespace: 'default',
      type: 'ConfigMaps.core',
    });
    if (!report.converged || maps.length !== 5 * n) {
      throw new Error(
        `${dir}: converged ${report.converged}, ${maps.length} ConfigMaps of ${5 * n}`,
      );
    }
    return { converge: converged - before, whole: converged - started };
  } finally {
    await session.close();
  }
}

export async function run(): Promise<void> {
  const m = await modules();
  const root = await mkdtemp(path.join(tmpdir(), 'cosi-kro-bench-'));
  try {
    const rows: string[][] = [];
    let previous: { n: number; converge: number } | undefined;
    let largest = '';
    for (const n of SIZES) {
      const rgd = path.join(root, `rgd-${n}`);
      const ts = path.join(root, `ts-${n}`);
      for (const [dir, files] of [
        [rgd, { 'rgd.yaml': RGD, 'things.yaml': instances(n) }],
        [ts, { 'cosi.config.ts': CONFIG, 'things.yaml': instances(n) }],
      ] as const) {
        await (await import('node:fs/promises')).mkdir(dir);
        for (const [name, text] of Object.entries(files))
          await writeFile(path.join(dir, name), text);
      }
      largest = rgd;
      await runOnce(m, rgd, n);
      await runOnce(m, ts, n);
      const best = {
        rgd: { converge: Infinity, whole: Infinity },
        ts: { converge: Infinity, whole: Infinity },
      };
      for (let i = 0; i < RUNS; i++) {
        for (const [side, dir] of [
          ['rgd', rgd],
          ['ts', ts],
        ] as const) {
          const t = await runOnce(m, dir, n);
          best[side].converge = Math.min(best[side].converge, t.converge);
          best[side].whole = Math.min(best[side].whole, t.whole);
        }
      }
      rows.push([
        formatCount(n),
        best.ts.converge.toFixed(0),
        best.rgd.converge.toFixed(0),
        `${(best.rgd.converge / best.ts.converge).toFixed(2)}x`,
        best.ts.whole.toFixed(0),
        best.rgd.whole.toFixed(0),
        `${(best.rgd.whole / best.ts.whole).toFixed(2)}x`,
        previous
          ? `x${(best.rgd.converge / previous.converge).toFixed(2)} for x${(n / previous.n).toFixed(1)}`
          : '',
      ]);
      previous = { n, converge: best.rgd.converge };
    }
    printTable(
      'kro: instances of an RGD with 5 resources vs the same controller in TypeScript',
      [
        'instances',
        'ts converge ms',
        'rgd converge ms',
        'rgd / ts',
        'ts whole ms',
        'rgd whole ms',
        'rgd / ts',
        'rgd growth',
      ],
      rows,
      ['whole: config, load (YAML, CEL compile), open and converge; best of 3, sides alternating'],
    );
    const edit = await watchEdit(m, largest);
    process.stdout.write(
      `\nkro watch: one instance edited in the ${formatCount(SIZES.at(-1) ?? 0)}-instance tree: best round ${edit.best.toFixed(1)} ms, median ${edit.median.toFixed(1)} ms (${EDITS} edits)\n\n`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Edits one instance (its size) and times each watch round. */
async function watchEdit(m: Modules, dir: string): Promise<{ best: number; median: number }> {
  let emit: ((event: FileEvent) => void) | undefined;
  const watch: WatchFiles = (_paths, onEvent) => {
    emit = onEvent;
    return { close: () => Promise.resolve() };
  };
  // One file per edited instance, so the round reads one small file.
  const file = path.join(dir, 'edited.yaml');
  const text = (size: number): string =>
    `apiVersion: kro.run/v1alpha1\nkind: Thing\nmetadata:\n  name: edited\nspec:\n  name: edited\n  size: ${size}\n`;
  await writeFile(file, text(1));
  const rounds: WatchModule.WatchRound[] = [];
  const session = await m.startWatchSession({
    files: ['.'],
    cwd: dir,
    stable: true,
    debounceMs: 0,
    watch,
    onRound: (round) => rounds.push(round),
  });
  const times: number[] = [];
  try {
    for (let i = 0; i < EDITS; i++) {
      await writeFile(file, text(i + 2));
      const before = rounds.length;
      emit?.({ kind: 'change', path: file });
      await new Promise((resolve) => setTimeout(resolve, 5));
      await session.idle();
      const round = rounds.at(-1);
      if (rounds.length === before || round?.report?.converged !== true) {
        throw new Error('the edit did not converge in one round');
      }
      if (!(await readFile(file, 'utf8')).includes(`size: ${i + 2}`)) throw new Error('lost edit');
      times.push(round.wallTime);
    }
  } finally {
    await session.close();
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { best: sorted[0] ?? 0, median: sorted[Math.floor(sorted.length / 2)] ?? 0 };
}
