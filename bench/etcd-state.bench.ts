/**
 * The etcd state against the in-memory state doing the same work, at 1,000 and 10,000 resources
 * (--quick: 1,000): create, update (through `modify`), list, and watch (the changes of N
 * updates delivered to a `watchKind` listener). Operations run one after another, so the etcd
 * figures are round trips to a real etcd on loopback (started here on a temporary data
 * directory): a latency-bound throughput, not etcd's capacity. Skipped, with a note, when the
 * etcd binary is absent.
 */
import type { Draft, Kind, Pointer, State } from '../src/index.js';
import { etcdAvailable, startEtcd } from '../test/support/etcd-server.js';
import { compare, formatCount, growth, loadBuiltCosi, printTable, sizes } from './harness.js';

const SIZES = sizes([1_000, 10_000], [1_000]);
/** Lists per run: each one returns all N resources. */
const LIST_ROUNDS = 5;
const KIND: Kind = { namespace: 'default', type: 'Items.bench.cosi.dev' };
/** etcd runs are slow: one timed run after the warm-up. */
const RUNS = { runs: 1 };

interface Spec {
  index: number;
  value: number;
}

interface Row {
  readonly operation: string;
  readonly etcd: number;
  readonly memory: number;
  readonly etcdMs: number;
}

type CosiModule = Awaited<ReturnType<typeof loadBuiltCosi>>;

export async function run(): Promise<void> {
  if (!etcdAvailable) {
    process.stdout.write('etcd-state: skipped, no etcd binary (install etcd-server)\n\n');
    return;
  }
  const cosi = await loadBuiltCosi();
  const server = await startEtcd();
  try {
    const bySize: Row[][] = [];
    let serial = 0;
    for (const n of SIZES) {
      bySize.push(
        await measure(cosi, n, () =>
          cosi.createEtcdState({ endpoints: [server.endpoint], prefix: `/bench/${serial++}` }),
        ),
      );
    }
    const table: string[][] = [];
    for (let op = 0; op < (bySize[0]?.length ?? 0); op++) {
      const times = bySize.map((rows) => rows[op]!.etcdMs);
      bySize.forEach((rows, i) => {
        const row = rows[op]!;
        table.push([
          row.operation,
          formatCount(SIZES[i]!),
          Math.round(row.etcd).toLocaleString('en-US'),
          Math.round(row.memory).toLocaleString('en-US'),
          `${(row.memory / row.etcd).toFixed(0)}x`,
          growth(SIZES, times, i),
        ]);
      });
    }
    printTable(
      'etcd state: one operation at a time over loopback, best run (list and watch: resources per second)',
      ['operation', 'size', 'etcd ops/s', 'in-memory ops/s', 'in-memory / etcd', 'growth (etcd)'],
      table,
    );
  } finally {
    await server.stop();
  }
}

async function measure(
  cosi: CosiModule,
  N: number,
  openEtcd: () => State & { close(): Promise<void> },
): Promise<Row[]> {
  const { createInMemoryState, newResource } = cosi;
  const pointers: Pointer[] = Array.from({ length: N }, (_, i) => ({
    ...KIND,
    id: `item-${String(i).padStart(6, '0')}`,
  }));
  const newItem = (i: number): Draft<Spec> =>
    newResource<Spec>(pointers[i]!, { index: i, value: 0 });
  const opened: { close(): Promise<void> }[] = [];
  const etcdState = (): State => {
    const state = openEtcd();
    opened.push(state);
    return state;
  };
  const createAll = async (state: State): Promise<void> => {
    for (let i = 0; i < N; i++) await state.create(newItem(i));
  };
  let round = 0;
  const modifyAll = async (state: State): Promise<void> => {
    const value = ++round;
    for (let i = 0; i < N; i++) {
      await state.modify<Spec>(newItem(i), (draft) => {
        draft.spec.value = value;
      });
    }
  };
  /** N updates, timed until the watcher has received all N. */
  const watched = async (state: State): Promise<void> => {
    let received = 0;
    let done = (): void => undefined;
    const all = new Promise<void>((resolve) => {
      done = resolve;
    });
    const controller = new AbortController();
    await state.watchKind(
      KIND,
      () => {
        if (++received === N) done();
      },
      { signal: controller.signal },
    );
    await modifyAll(state);
    await all;
    controller.abort();
  };

  try {
    const rows: Row[] = [];
    const row = (operation: string, result: Awaited<ReturnType<typeof compare>>): void => {
      rows.push({
        operation,
        etcd: result.cosi.opsPerSecond,
        memory: result.baseline.opsPerSecond,
        etcdMs: result.cosi.ms,
      });
    };
    row(
      'create',
      await compare(
        N,
        { prepare: etcdState, work: createAll },
        { prepare: () => createInMemoryState(), work: createAll },
        RUNS,
      ),
    );

    const etcd = etcdState();
    const memory = createInMemoryState();
    await createAll(etcd);
    await createAll(memory);
    row(
      'update (modify)',
      await compare(
        N,
        { prepare: () => etcd, work: modifyAll },
        { prepare: () => memory, work: modifyAll },
        RUNS,
      ),
    );
    const listAll = async (state: State): Promise<void> => {
      let listed = 0;
      for (let r = 0; r < LIST_ROUNDS; r++) listed += (await state.list(KIND)).length;
      if (listed !== N * LIST_ROUNDS) throw new Error(`listed ${listed}`);
    };
    row(
      'list',
      await compare(
        N * LIST_ROUNDS,
        { prepare: () => etcd, work: listAll },
        { prepare: () => memory, work: listAll },
        RUNS,
      ),
    );
    row(
      'watch (N updates delivered)',
      await compare(
        N,
        { prepare: () => etcd, work: watched },
        { prepare: () => memory, work: watched },
        RUNS,
      ),
    );
    return rows;
  } finally {
    for (const state of opened) await state.close();
  }
}
