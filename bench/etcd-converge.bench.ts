/**
 * The vm-network project converged end to end on etcd against the same project on the in-memory
 * state, in the same run: generated trees of 1,000 and 10,000 resources (--quick: 1,000), each
 * loaded once, then for each state `openProject` (the definitions and manifests written into it)
 * and `convergeProject` (the controllers run until quiescent), timed as the apply benchmark times
 * its phases (`performance.now()` around each). In memory, after an untimed warm-up, the median of
 * {@link MEMORY_RUNS} runs: one run of a fraction of a second moved 3x with the machine's load.
 *
 * The runtime decides it is idle without waiting for an etcd watch to deliver its own writes, so
 * on etcd one convergence run can end before the last changes come back. The bench waits for the
 * state to settle (`EtcdState.settled()`) and converges again until a run does nothing; the extra
 * runs are counted in the table, and both states must end with the same resources.
 *
 * Two baselines in the same run besides the in-memory state: a bare `etcd3` loop that puts as
 * many keys as the etcd run wrote resources, as many in flight as the run allows (the limit of
 * this machine: issue 33's second target), and the same project with the placement controller's
 * `concurrency: 4` raised to `'writesInFlight'` (a variant made here; the fixture, which tests and
 * goldens use, is left as it is), to show what a queue controller's own concurrency costs on etcd.
 *
 * Skipped, with a note, when the etcd binary is absent.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { EtcdState, ProjectConfig, QController, State } from '../src/index.js';
import type * as Loaders from '../src/loaders/index.js';
import type * as ProjectModule from '../src/app/project.js';
import type * as ConvergeModule from '../src/app/converge-project.js';
import type * as SnapshotModule from '../src/engine/state/state-snapshot.js';
import { etcdAvailable, startEtcd } from '../test/support/etcd-server.js';
import { formatCount, loadBuiltCosi, printTable, sizes } from './harness.js';
import { generateTree } from './vm-network-tree.js';

const SIZES = sizes([1_000, 10_000], [1_000]);
/** In-memory runs per size, of which the median is the baseline. */
const MEMORY_RUNS = 5;
/** Writes in flight on etcd, as `cosi run` keeps them. */
const WRITES_IN_FLIGHT = 32;
const dist = (p: string): string => new URL(`../dist/${p}`, import.meta.url).href;

interface Converged {
  /** `openProject`: definitions and manifests written into the state, controllers registered. */
  readonly open: number;
  /** `convergeProject`, repeated on etcd until a run does nothing. */
  readonly converge: number;
  readonly reconciles: number;
  /** Writes by the controllers (the manifests' own writes are in `open`). */
  readonly writes: number;
  /** Convergence runs after the first that still found work. */
  readonly extraRuns: number;
  readonly resourcesAfter: number;
  /** Resources after converging, by type: both states must agree. */
  readonly byType: string;
  /** Per controller: reconciles / writes, summed over the runs. */
  readonly perController: string;
  /** Why the last convergence run ended, and what failed when it did not converge. */
  readonly outcome: string;
}

/** CPU ms (user + system) a process has used so far, from /proc; undefined elsewhere. */
async function processCpuMs(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // After the command name in parentheses: utime and stime are fields 14 and 15, in ticks.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Linux's USER_HZ: /proc reports CPU times in these. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * The project's config with the placement controller's queue at the runtime's `writesInFlight`
 * (32 on etcd here, 1 in memory) instead of its own 4.
 */
function withPlacementAtWritesInFlight(config: ProjectConfig): ProjectConfig {
  return {
    ...config,
    controllers: (config.controllers ?? []).map((controller) =>
      controller.name === 'PlacementController' && 'reconcile' in controller
        ? ({
            ...controller,
            settings: { ...controller.settings, concurrency: 'writesInFlight' },
          } satisfies QController)
        : controller,
    ),
  };
}

/** Wall ms of `count` puts of 400-byte values under `prefix`, `concurrency` in flight. */
async function rawWrites(
  endpoint: string,
  prefix: string,
  count: number,
  concurrency: number,
): Promise<number> {
  const { Etcd3 } = await import('etcd3');
  const client = new Etcd3({ hosts: endpoint });
  const value = 'x'.repeat(400);
  try {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) await client.put(`${prefix}/${next++}`).value(value);
      }),
    );
    return performance.now() - started;
  } finally {
    client.close();
  }
}

export async function run(): Promise<void> {
  if (!etcdAvailable) {
    process.stdout.write('etcd-converge: skipped, no etcd binary (install etcd-server)\n\n');
    return;
  }
  const cosi = await loadBuiltCosi();
  const loaders = (await import(dist('loaders/index.js'))) as typeof Loaders;
  const { openProject } = (await import(dist('app/project.js'))) as typeof ProjectModule;
  const { convergeProject } = (await import(
    dist('app/converge-project.js')
  )) as typeof ConvergeModule;
  const { takeSnapshot } = (await import(
    dist('engine/state/state-snapshot.js')
  )) as typeof SnapshotModule;
  const config = path.resolve('fixtures/vm-network/cosi.config.ts');
  const loaded = await loaders.loadConfig(config, { modules: { cosi } });

  const variant = { ...loaded, config: withPlacementAtWritesInFlight(loaded.config) };

  async function converge(
    dir: string,
    manifests: Parameters<typeof openProject>[1],
    state: State | undefined,
    settled: () => Promise<void>,
    config: typeof loaded = loaded,
  ): Promise<Converged> {
    const t0 = performance.now();
    const project = await openProject(config, manifests, {
      cwd: dir,
      // As `cosi run` on etcd: 32 writes in flight, the manifests' and each generic controller's.
      ...(state
        ? { state, applyConcurrency: WRITES_IN_FLIGHT, writesInFlight: WRITES_IN_FLIGHT }
        : {}),
    });
    const t1 = performance.now();
    try {
      const bounds = { maxWrites: Number.POSITIVE_INFINITY };
      const perController = new Map<string, { reconciles: number; writes: number }>();
      let reconciles = 0;
      let writes = 0;
      let runs = 0;
      let report: Awaited<ReturnType<typeof convergeProject>>;
      for (;;) {
        report = await convergeProject(project, bounds);
        if (runs > 0 && report.converged && report.reconciles === 0 && report.writes === 0) break;
        runs++;
        reconciles += report.reconciles;
        writes += report.writes;
        for (const c of report.controllers) {
          const sum = perController.get(c.name) ?? { reconciles: 0, writes: 0 };
          sum.reconciles += c.reconciles;
          sum.writes += c.writes;
          perController.set(c.name, sum);
        }
        // A failure is a figure too: reported, not thrown, so the other side still runs.
        if (!report.converged) break;
        await settled();
      }
      const t2 = performance.now();
      const failures = report.controllers
        .filter((c) => c.condition === 'failed' || c.failingItems.length > 0)
        .map(
          (c) =>
            `${c.name} ${c.condition}, ${c.failingItems.length} failing items, errors ${c.errors}, last error: ${(c.lastError ?? c.failingItems[0]?.error)?.message ?? '-'}`,
        );
      const snapshot = await takeSnapshot(project.state);
      const counts = new Map<string, number>();
      for (const r of snapshot.resources) {
        counts.set(r.metadata.type, (counts.get(r.metadata.type) ?? 0) + 1);
      }
      return {
        open: t1 - t0,
        converge: t2 - t1,
        reconciles,
        writes,
        extraRuns: runs - 1,
        resourcesAfter: snapshot.resources.length,
        byType: [...counts]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([type, count]) => `${type} ${count}`)
          .join(', '),
        perController: [...perController]
          .map(([name, c]) => `${name} ${c.reconciles}/${c.writes}`)
          .join(', '),
        outcome: report.converged
          ? report.reason
          : `did not converge (${report.reason}): ${failures.join('; ')}`,
      };
    } finally {
      await project.runtime.stop();
    }
  }

  const cpu = (x: number): string => Math.round(x).toLocaleString('en-US');
  const count = (x: number): string => x.toLocaleString('en-US');

  interface OnEtcd {
    readonly converged: Converged;
    readonly asked: { reads: number; writes: number; resourceWrites: number; cachedReads: number };
    /** CPU ms of this process (cosi and the etcd client) and of the etcd server. */
    readonly cosiCpu: number;
    readonly etcdCpu: number | undefined;
  }

  /** The project converged on a fresh prefix of `endpoint`, with what it asked and its CPU. */
  async function onEtcd(
    endpoint: string,
    pid: number | undefined,
    prefix: string,
    dir: string,
    manifests: Parameters<typeof openProject>[1],
    config: typeof loaded,
  ): Promise<OnEtcd> {
    const etcdState: EtcdState = cosi.createEtcdState({ endpoints: [endpoint], prefix });
    try {
      const clientBefore = process.cpuUsage();
      const serverBefore = await processCpuMs(pid);
      const converged = await converge(
        dir,
        manifests,
        etcdState,
        () => etcdState.settled(),
        config,
      );
      const client = process.cpuUsage(clientBefore);
      const serverAfter = await processCpuMs(pid);
      return {
        converged,
        asked: etcdState.figures(),
        cosiCpu: (client.user + client.system) / 1000,
        etcdCpu:
          serverBefore === undefined || serverAfter === undefined
            ? undefined
            : serverAfter - serverBefore,
      };
    } finally {
      await etcdState.close();
    }
  }

  const server = await startEtcd();
  const rows: string[][] = [];
  const notes: string[] = [];
  try {
    for (const n of SIZES) {
      const dir = await mkdtemp(path.join(tmpdir(), 'cosi-etcd-converge-bench-'));
      try {
        const paths = await generateTree(dir, n);
        const files = await Promise.all(
          paths.map(async (p) => ({ path: p, text: await readFile(p, 'utf8') })),
        );
        const manifests = loaders.loadManifests(files, { definitions: loaded.definitions });
        if (loaders.hasErrors(manifests.findings) || manifests.resources.length !== n) {
          throw new Error(`the generated tree did not load: ${manifests.findings.length} findings`);
        }
        const inMemory = (): Promise<Converged> =>
          converge(dir, manifests, undefined, () => Promise.resolve());
        // Warm-up: the JIT, on the in-memory state (an etcd warm-up would cost minutes).
        await inMemory();
        const memoryRuns: Converged[] = [];
        for (let i = 0; i < MEMORY_RUNS; i++) memoryRuns.push(await inMemory());
        memoryRuns.sort((a, b) => a.open + a.converge - (b.open + b.converge));
        const memory = memoryRuns[Math.floor(MEMORY_RUNS / 2)] as Converged;
        const size = formatCount(n);
        const fixture = await onEtcd(
          server.endpoint,
          server.pid,
          `/bench-converge/${n}`,
          dir,
          manifests,
          loaded,
        );
        const wide = await onEtcd(
          server.endpoint,
          server.pid,
          `/bench-converge-wide/${n}`,
          dir,
          manifests,
          variant,
        );
        const etcd = fixture.converged;
        // The limit on this machine (issue 33's second target): a bare etcd3 loop putting as
        // many keys (of the project's size) as the etcd run wrote resources, with as many in
        // flight as the run allows; and, as before, as many puts as it sent write requests.
        const rawCpuBefore = await processCpuMs(server.pid);
        const rawKeys = await rawWrites(
          server.endpoint,
          `/bench-raw-keys/${n}`,
          fixture.asked.resourceWrites,
          WRITES_IN_FLIGHT,
        );
        const rawCpuAfter = await processCpuMs(server.pid);
        const rawRequests = await rawWrites(
          server.endpoint,
          `/bench-raw-requests/${n}`,
          fixture.asked.writes,
          WRITES_IN_FLIGHT,
        );
        const ms = (x: number): string => Math.round(x).toLocaleString('en-US');
        const ratio = (a: number, b: number): string => `${(a / b).toFixed(1)}x`;
        for (const [phase, key] of [
          ['open (store manifests)', 'open'],
          ['converge', 'converge'],
        ] as const) {
          rows.push([phase, size, ms(etcd[key]), ms(memory[key]), ratio(etcd[key], memory[key])]);
        }
        const total = (r: Converged): number => r.open + r.converge;
        rows.push([
          'open + converge',
          size,
          ms(total(etcd)),
          ms(total(memory)),
          ratio(total(etcd), total(memory)),
        ]);
        rows.push([
          "open + converge, placement at 'writesInFlight'",
          size,
          ms(total(wide.converged)),
          ms(total(memory)),
          ratio(total(wide.converged), total(memory)),
        ]);
        rows.push([
          `bare etcd3 loop: as many keys, ${WRITES_IN_FLIGHT} in flight`,
          size,
          ms(rawKeys),
          ms(total(memory)),
          ratio(rawKeys, total(memory)),
        ]);
        for (const [name, run] of [
          ['fixture', fixture],
          ["placement at 'writesInFlight'", wide],
        ] as const) {
          notes.push(
            `  ${size} ${name}: etcd requests ${count(run.asked.reads)} reads, ${count(run.asked.writes)} writes carrying ${count(run.asked.resourceWrites)} resource writes, ${count(run.asked.cachedReads)} reads answered from the watches; CPU (wall ${ms(total(run.converged))} ms): cosi process ${cpu(run.cosiCpu)} ms, etcd server ${run.etcdCpu === undefined ? 'unknown' : `${cpu(run.etcdCpu)} ms`}`,
            `  ${size} ${name}: open + converge on etcd / bare loop of as many keys: ${(total(run.converged) / rawKeys).toFixed(1)}x; reconciles on etcd / in memory: ${(run.converged.reconciles / memory.reconciles).toFixed(2)}x`,
          );
        }
        notes.push(
          `  ${size} bare etcd3 loop, ${count(fixture.asked.resourceWrites)} puts ${WRITES_IN_FLIGHT} in flight: ${ms(rawKeys)} ms, etcd server CPU ${rawCpuBefore === undefined || rawCpuAfter === undefined ? 'unknown' : `${cpu(rawCpuAfter - rawCpuBefore)} ms`}`,
          `  ${size} bare etcd3 loop, ${count(fixture.asked.writes)} puts (as many as write requests) ${WRITES_IN_FLIGHT} in flight: ${ms(rawRequests)} ms`,
        );
        for (const [name, r] of [
          ['etcd', etcd],
          ["etcd, placement at 'writesInFlight'", wide.converged],
          ['in-memory', memory],
        ] as const) {
          notes.push(
            `  ${size} ${name}: ${r.outcome}; ${r.reconciles.toLocaleString('en-US')} reconciles, ${r.writes.toLocaleString('en-US')} controller writes, ${r.extraRuns} extra convergence runs`,
            `    reconciles/writes by controller: ${r.perController}`,
            `    ${r.resourcesAfter.toLocaleString('en-US')} resources after: ${r.byType}`,
          );
        }
        if (etcd.byType !== memory.byType || wide.converged.byType !== memory.byType) {
          notes.push(`  ${size}: the states ended with different resources`);
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await server.stop();
  }
  printTable(
    'vm-network project converged on etcd (loopback) and in memory, same run: wall ms',
    ['run', 'size', 'ms', 'in-memory ms', '/ in-memory'],
    rows,
    [...notes],
  );
}
