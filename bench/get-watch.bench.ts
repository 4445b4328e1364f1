/**
 * `cosi get -w`'s work per watch round, on a state of n resources of which 10 changed: what
 * `SelectionChanges.round` finds from the round's list of changes, and the rows it prints (table
 * writer). Baseline, in the same run: selecting and printing the whole table again, what a
 * re-listing `get` would cost each round. Sizes 1k, 10k, 100k (--quick: 1k, 10k): the round
 * should cost what changed, not the size of the state.
 */
import { formatCount, growth, loadBuiltCosi, printTable, sizes } from './harness.js';
import type * as SelectionChangesModule from '../src/app/selection-changes.js';
import type * as ResourceQuery from '../src/app/resource-query.js';
import type * as ResourceEvents from '../src/cli/render/resource-events.js';
import type * as Resources from '../src/cli/render/resources.js';
import type * as Tracker from '../src/engine/state/snapshot-tracker.js';

const SIZES = sizes([1_000, 10_000, 100_000], [1_000, 10_000]);
const CHANGED = 10;

const load = async <T>(path: string): Promise<T> =>
  (await import(new URL(`../dist/${path}`, import.meta.url).href)) as T;

export async function run(): Promise<void> {
  const cosi = await loadBuiltCosi();
  const { SelectionChanges } = await load<typeof SelectionChangesModule>(
    'app/selection-changes.js',
  );
  const { selectResources } = await load<typeof ResourceQuery>('app/resource-query.js');
  const { createResourceEventWriter } = await load<typeof ResourceEvents>(
    'cli/render/resource-events.js',
  );
  const { renderResources } = await load<typeof Resources>('cli/render/resources.js');
  const { SnapshotTracker } = await load<typeof Tracker>('engine/state/snapshot-tracker.js');
  const definition = cosi.createDefinition({
    type: 'VMs.example.org',
    printColumns: [{ name: 'CPUs', jsonPath: '{.cpus}' }],
  });
  const project = { registry: new cosi.DefinitionRegistry([definition]) };
  const query = { type: 'vm' };
  const rows: string[][] = [];
  const times: number[] = [];
  for (const n of SIZES) {
    const state = cosi.createInMemoryState();
    for (let i = 0; i < n; i++) {
      const id = `vm-${String(i).padStart(7, '0')}`;
      await state.create(
        cosi.newResource({ namespace: 'default', type: definition.type, id }, { cpus: 1 }),
      );
    }
    const tracker = new SnapshotTracker(state);
    const changes = new SelectionChanges(query);
    let printed = 0;
    const writer = createResourceEventWriter('table', (text) => (printed += text.length));
    writer.initial(changes.start({ project, snapshot: await tracker.take() }));
    let round = Number.POSITIVE_INFINITY;
    let relist = Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < 3; attempt++) {
      for (let i = 0; i < CHANGED; i++) {
        const pointer = {
          namespace: 'default',
          type: definition.type,
          id: `vm-${String(i * 7).padStart(7, '0')}`,
        };
        const stored = await state.get(pointer);
        await state.update({ ...stored, spec: { cpus: attempt + 2 } });
      }
      const snapshot = await tracker.take();
      const from = { project, snapshot };
      let start = performance.now();
      for (const change of changes.round(from)) writer.change(change);
      round = Math.min(round, performance.now() - start);
      start = performance.now();
      printed += renderResources(selectResources(from, query), 'table').length;
      relist = Math.min(relist, performance.now() - start);
    }
    tracker.stop();
    times.push(round);
    rows.push([
      formatCount(n),
      String(CHANGED),
      round.toFixed(3),
      relist.toFixed(1),
      `${(relist / round).toFixed(0)}x`,
      growth(SIZES, times, times.length - 1),
    ]);
    if (printed === 0) throw new Error('nothing printed');
  }
  printTable(
    `get -w: one watch round with ${CHANGED} resources changed`,
    ['size', 'changed', 'round ms', 'relist ms', 'relist / round', 'growth (round)'],
    rows,
  );
}
