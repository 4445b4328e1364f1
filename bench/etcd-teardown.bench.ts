/**
 * Teardown on etcd: N dependents of one owner, the owner torn down, timed until every dependent
 * and the owner are gone (1,000 and 5,000; --quick: 1,000). Two projects: the owner garbage
 * collector (a controller reference with `blockOwnerDeletion` on each dependent: a foreground
 * deletion) and a cleanup controller with `removeOutputs` (dependents labelled with the owner);
 * the destroy controller destroys the released owner in both.
 *
 * The same run measures the controllers on etcd one write at a time (`writesInFlight` 1: how they
 * wrote before they were pipelined) and with 32 in flight (as `cosi run` keeps them), in memory,
 * and a bare etcd3 loop of the same 2N writes (N puts, N deletes) with 32 in flight: the limit on
 * this machine. Dependents are created untimed, 32 at a time.
 *
 * Skipped, with a note, when the etcd binary is absent.
 */
import type { Controller, QController, Runtime, State } from '../src/index.js';
import { etcdAvailable, startEtcd } from '../test/support/etcd-server.js';
import { formatCount, loadBuiltCosi, printTable, sizes, type CosiModule } from './harness.js';

const SIZES = sizes([1_000, 5_000], [1_000]);
const WRITES_IN_FLIGHT = 32;

type Project = 'garbage collector' | 'cleanup';

async function inParallel(count: number, limit: number, fn: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) await fn(next++);
    }),
  );
}

/** Wall ms from the owner's teardown until nothing of the project is left. */
async function timeTeardown(
  cosi: CosiModule,
  project: Project,
  n: number,
  state: State,
  writesInFlight: number,
  settled: () => Promise<void>,
  hooks: { beforeTeardown?: () => void } = {},
): Promise<number> {
  const Owner = cosi.defineResource<{ n: number }>({
    type: 'Owners.bench.cosi.dev',
    defaultSpec: () => ({ n: 0 }),
  });
  const Dependent = cosi.defineResource<{ n: number }>({
    type: 'Dependents.bench.cosi.dev',
    defaultSpec: () => ({ n: 0 }),
  });
  const runtime: Runtime = cosi.createRuntime(state, {
    clock: new cosi.SimulatedClock(),
    writesInFlight,
  });
  const controllers: (Controller | QController)[] = [cosi.createDestroyController(Owner.kind())];
  controllers.push(
    project === 'garbage collector'
      ? cosi.createGarbageCollector({ owners: [Owner], dependents: [Dependent] })
      : cosi.createCleanupController({
          name: 'DependentCleanup',
          input: Owner,
          handler: cosi.removeOutputs(Dependent.kind(), {
            labelQueries: [cosi.labelQuery(cosi.labelEqual('owner', 'owner'))],
          }),
        }),
  );
  try {
    const owner = await state.create(Owner.create('owner'));
    await inParallel(n, WRITES_IN_FLIGHT, async (i) => {
      const dependent = Dependent.create(`d-${i}`, { n: i }, { labels: { owner: 'owner' } });
      if (project === 'garbage collector') {
        cosi.setControllerReference(owner, dependent, { blockOwnerDeletion: true });
      }
      await state.create(dependent);
    });
    await runtime.register(...controllers);
    await convergeFully(runtime, settled);
    hooks.beforeTeardown?.();
    const started = performance.now();
    await state.teardown(Owner.pointer('owner'));
    await convergeFully(runtime, settled);
    const ms = performance.now() - started;
    const left =
      (await state.list(Dependent.kind())).length + (await state.list(Owner.kind())).length;
    if (left > 0) throw new Error(`${project} at ${n}: ${left} resources left after teardown`);
    return ms;
  } finally {
    await runtime.stop();
  }
}

/** Converges until a run, after the state delivered every event, finds nothing to do. */
async function convergeFully(runtime: Runtime, settled: () => Promise<void>): Promise<void> {
  for (let run = 0; run < 50; run++) {
    const report = await runtime.converge({ maxWrites: Number.POSITIVE_INFINITY });
    if (!report.converged) throw new Error(`did not converge: ${report.reason}`);
    if (run > 0 && report.reconciles === 0) return;
    await settled();
  }
  throw new Error('still busy after 50 convergence runs');
}

/** Wall ms of `count` puts then deletes of 100-byte values, `WRITES_IN_FLIGHT` at a time. */
async function rawLoop(endpoint: string, prefix: string, count: number): Promise<number> {
  const { Etcd3 } = await import('etcd3');
  const client = new Etcd3({ hosts: endpoint });
  const value = 'x'.repeat(100);
  try {
    const started = performance.now();
    await inParallel(count, WRITES_IN_FLIGHT, async (i) => {
      await client.put(`${prefix}/${i}`).value(value);
    });
    await inParallel(count, WRITES_IN_FLIGHT, async (i) => {
      await client.delete().key(`${prefix}/${i}`);
    });
    return performance.now() - started;
  } finally {
    client.close();
  }
}

export async function run(): Promise<void> {
  if (!etcdAvailable) {
    process.stdout.write('etcd-teardown: skipped, no etcd binary (install etcd-server)\n\n');
    return;
  }
  const cosi = await loadBuiltCosi();
  const server = await startEtcd();
  const rows: string[][] = [];
  const ms = (x: number): string => Math.round(x).toLocaleString('en-US');
  const ratio = (a: number, b: number): string => `${(a / b).toFixed(1)}x`;
  let prefixes = 0;
  /** The teardown's wall ms and the requests it sent to etcd. */
  const onEtcd = async (
    project: Project,
    n: number,
    inFlight: number,
  ): Promise<{ ms: number; requests: string }> => {
    const state = cosi.createEtcdState({
      endpoints: [server.endpoint],
      prefix: `/bench-teardown/${prefixes++}`,
    });
    try {
      let before = { reads: 0, writes: 0 };
      const took = await timeTeardown(cosi, project, n, state, inFlight, () => state.settled(), {
        beforeTeardown: () => {
          before = state.figures();
        },
      });
      const after = state.figures();
      const count = (x: number): string => x.toLocaleString('en-US');
      return {
        ms: took,
        requests: `${count(after.reads - before.reads)} / ${count(after.writes - before.writes)}`,
      };
    } finally {
      await state.close();
    }
  };
  try {
    for (const n of SIZES) {
      const raw = await rawLoop(server.endpoint, `/bench-teardown-raw/${n}`, n);
      for (const project of ['garbage collector', 'cleanup'] as const) {
        const inMemory = async (): Promise<number> =>
          timeTeardown(cosi, project, n, cosi.createInMemoryState(), 1, () => Promise.resolve());
        await inMemory(); // warm-up
        const memory = await inMemory();
        const one = await onEtcd(project, n, 1);
        const pipelined = await onEtcd(project, n, WRITES_IN_FLIGHT);
        rows.push([
          project,
          formatCount(n),
          ms(one.ms),
          ms(pipelined.ms),
          ratio(one.ms, pipelined.ms),
          ms(raw),
          ratio(pipelined.ms, raw),
          ms(memory),
          pipelined.requests,
        ]);
      }
    }
  } finally {
    await server.stop();
  }
  printTable(
    'teardown of N dependents of one owner: owner torn down -> all gone, wall ms (loopback etcd)',
    [
      'project',
      'N',
      'etcd 1 in flight',
      `etcd ${WRITES_IN_FLIGHT} in flight`,
      'speed-up',
      `raw etcd3 2N writes, ${WRITES_IN_FLIGHT} in flight`,
      `${WRITES_IN_FLIGHT} in flight / raw`,
      'in memory',
      'etcd reads / writes',
    ],
    rows,
  );
}
