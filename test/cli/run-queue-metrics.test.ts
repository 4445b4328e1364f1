import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spawnCosi, type CosiProcess } from '../support/cosi-process.js';
import { etcdAvailable, startEtcd, type EtcdServer } from '../support/etcd-server.js';

/**
 * `cosi run --metrics-addr`'s work queue and worker metrics, as controller-runtime names them:
 * the built CLI as a real process, `/metrics` read over real HTTP on loopback, the values those
 * of what the project's controllers did. Every wait is for a condition, bounded.
 */

/**
 * A queue controller `Items` (3 workers) whose reconcile fails an item of mode `terminal` with a
 * terminal error, an item of mode `panic` once with a TypeError (then succeeds: one retry), and
 * holds an item of mode `wait` until the file `release` exists in the project; and a whole-world
 * controller `Copier` (a transform) that copies each Item.
 */
const CONFIG = `
import { existsSync } from 'node:fs';
import {
  controllerManagedBy,
  createTransformController,
  defineConfig,
  defineResource,
  findById,
  terminalError,
  type Runtime,
} from 'cosi';

const schema = { type: 'object', properties: { mode: { type: 'string' } } };
export const Item = defineResource<{ mode: string }>({
  type: 'Items.metrics.test',
  defaultSpec: () => ({ mode: 'ok' }),
  schema,
});
export const Copy = defineResource<{ mode: string }>({
  type: 'Copies.metrics.test',
  defaultSpec: () => ({ mode: 'ok' }),
  schema,
});

const release = new URL('./release', import.meta.url);
let panicked = false;

async function setup(runtime: Runtime): Promise<void> {
  await controllerManagedBy(runtime)
    .named('Items')
    .for(Item)
    .withOptions({ maxConcurrentReconciles: 3 })
    .complete(async ({ client }, request) => {
      const item = await findById(client, Item, request.id, request.namespace);
      if (item?.spec.mode === 'terminal') throw terminalError(new Error('cannot do this one'));
      if (item?.spec.mode === 'panic' && !panicked) {
        panicked = true;
        // A TypeError, as a nil dereference panics in Go.
        (item.spec as unknown as { missing: { field: number } }).missing.field;
      }
      while (item?.spec.mode === 'wait' && !existsSync(release)) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    });
}

export default defineConfig({
  definitions: [Item, Copy],
  controllers: [
    createTransformController({
      name: 'Copier',
      input: Item,
      output: Copy,
      mapMetadata: (item) => Copy.create(item.metadata.id),
      transform: (_ctx, item, copy) => {
        copy.spec.mode = item.spec.mode;
      },
    }),
  ],
  setup,
});
`;

function items(modes: Readonly<Record<string, string>>): string {
  return Object.entries(modes)
    .map(
      ([id, mode]) =>
        `metadata:\n  type: Items.metrics.test\n  id: ${id}\nspec:\n  mode: ${mode}\n`,
    )
    .join('---\n');
}

async function metricsOf(p: CosiProcess): Promise<string> {
  const line = await p.waitForLine(/serving \/metrics on http:/);
  const match = /on (http:\/\/[\d.]+:\d+)/.exec(line);
  if (!match?.[1]) throw new Error(`no address in ${line}`);
  return `${match[1]}/metrics`;
}

async function scrape(url: string): Promise<string> {
  const response = await fetch(url, { signal: AbortSignal.timeout(20_000) });
  expect(response.status).toBe(200);
  return response.text();
}

/** A sample's value in Prometheus text: `name{labels} value`. */
function sample(metrics: string, name: string, labels: string): number | undefined {
  const line = metrics.split('\n').find((l) => l.startsWith(`${name}{${labels}} `));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

/** A work queue series' labels, as controller-runtime's: its name and its controller's. */
const queue = (controller: string): string => `name="${controller}",controller="${controller}"`;
const of = (controller: string): string => `controller="${controller}"`;

describe('cosi run --metrics-addr: work queue and worker metrics', () => {
  let dir: string;
  const processes: CosiProcess[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-run-queue-metrics-'));
    await writeFile(path.join(dir, 'cosi.config.ts'), CONFIG);
  });
  afterEach(async () => {
    for (const p of processes.splice(0)) {
      p.kill('SIGKILL');
      await p.exited;
    }
    await rm(dir, { recursive: true, force: true });
  });
  const start = (...extra: string[]): CosiProcess => {
    const p = spawnCosi(['run', '-f', dir, '--metrics-addr', '127.0.0.1:0', ...extra]);
    processes.push(p);
    return p;
  };

  it('counts each add, wait and work of the queues, and terminal errors and panics apart', async () => {
    await writeFile(
      path.join(dir, 'items.yaml'),
      items({ a: 'ok', b: 'ok', t: 'terminal', p: 'panic' }),
    );
    const p = start();
    const url = await metricsOf(p);
    // a, b and p (once retried) succeed; t fails for good.
    const body = await p.waitUntil(
      async () => {
        const text = await scrape(url);
        const done = sample(
          text,
          'controller_runtime_reconcile_total',
          `${of('Items')},result="success"`,
        );
        return done === 3 ? text : undefined;
      },
      30_000,
      'the three items that can be reconciled to be',
    );
    // Four items listed at the start, and p once more after its backoff: five adds, each taken
    // after a wait and worked on.
    expect(sample(body, 'workqueue_adds_total', queue('Items'))).toBe(5);
    expect(sample(body, 'workqueue_queue_duration_seconds_count', queue('Items'))).toBe(5);
    expect(sample(body, 'workqueue_work_duration_seconds_count', queue('Items'))).toBe(5);
    expect(sample(body, 'workqueue_retries_total', queue('Items'))).toBe(1);
    expect(sample(body, 'workqueue_depth', queue('Items'))).toBe(0);
    expect(sample(body, 'workqueue_unfinished_work_seconds', queue('Items'))).toBe(0);
    expect(sample(body, 'workqueue_longest_running_processor_seconds', queue('Items'))).toBe(0);
    expect(
      sample(body, 'controller_runtime_reconcile_total', `${of('Items')},result="error"`),
    ).toBe(2);
    expect(sample(body, 'controller_runtime_reconcile_errors_total', of('Items'))).toBe(2);
    expect(sample(body, 'controller_runtime_terminal_reconcile_errors_total', of('Items'))).toBe(1);
    expect(sample(body, 'controller_runtime_reconcile_panics_total', of('Items'))).toBe(1);
    expect(sample(body, 'controller_runtime_max_concurrent_reconciles', of('Items'))).toBe(3);
    expect(sample(body, 'controller_runtime_active_workers', of('Items'))).toBe(0);
    // The whole-world controller's queue is its owed pass: every wakeup that made one owed is an
    // add, taken once and worked once, one worker at most.
    const passes = sample(body, 'workqueue_work_duration_seconds_count', queue('Copier')) ?? 0;
    expect(passes).toBeGreaterThan(0);
    expect(sample(body, 'workqueue_adds_total', queue('Copier'))).toBe(passes);
    expect(sample(body, 'workqueue_queue_duration_seconds_count', queue('Copier'))).toBe(passes);
    expect(
      sample(body, 'controller_runtime_reconcile_total', `${of('Copier')},result="success"`),
    ).toBe(passes);
    expect(sample(body, 'controller_runtime_max_concurrent_reconciles', of('Copier'))).toBe(1);
    expect(sample(body, 'controller_runtime_terminal_reconcile_errors_total', of('Copier'))).toBe(
      0,
    );
    expect(sample(body, 'controller_runtime_reconcile_panics_total', of('Copier'))).toBe(0);
    // Help and type, in seconds, as controller-runtime's.
    expect(body).toContain('# TYPE workqueue_queue_duration_seconds histogram');
    expect(body).toContain('# TYPE workqueue_adds_total counter');
    expect(body).toContain('# TYPE controller_runtime_active_workers gauge');
    expect(body).toMatch(
      /^workqueue_work_duration_seconds_bucket\{le="1e-8",name="Items",controller="Items"\} 0$/m,
    );
  }, 60_000);

  it('shows a worker held by a reconcile: active, its unfinished work growing, until it ends', async () => {
    await writeFile(path.join(dir, 'items.yaml'), items({ a: 'ok', w: 'wait' }));
    const p = start();
    const url = await metricsOf(p);
    const held = await p.waitUntil(
      async () => {
        const text = await scrape(url);
        return sample(text, 'controller_runtime_active_workers', of('Items')) === 1 &&
          (sample(text, 'workqueue_longest_running_processor_seconds', queue('Items')) ?? 0) > 0
          ? text
          : undefined;
      },
      30_000,
      'the reconcile of w to hold a worker',
    );
    const first = sample(held, 'workqueue_longest_running_processor_seconds', queue('Items')) ?? 0;
    expect(sample(held, 'workqueue_unfinished_work_seconds', queue('Items'))).toBe(first);
    // Taken, not done.
    expect(sample(held, 'workqueue_queue_duration_seconds_count', queue('Items'))).toBe(2);
    expect(sample(held, 'workqueue_work_duration_seconds_count', queue('Items'))).toBe(1);
    const later = await p.waitUntil(
      async () => {
        const text = await scrape(url);
        const now = sample(text, 'workqueue_longest_running_processor_seconds', queue('Items'));
        return now !== undefined && now > first ? now : undefined;
      },
      30_000,
      'the held worker to have run longer',
    );
    expect(later).toBeGreaterThan(first);
    await writeFile(path.join(dir, 'release'), '');
    const ended = await p.waitUntil(
      async () => {
        const text = await scrape(url);
        return sample(text, 'workqueue_work_duration_seconds_count', queue('Items')) === 2
          ? text
          : undefined;
      },
      30_000,
      'the held reconcile to end',
    );
    expect(sample(ended, 'controller_runtime_active_workers', of('Items'))).toBe(0);
    expect(sample(ended, 'workqueue_longest_running_processor_seconds', queue('Items'))).toBe(0);
    // The held reconcile's time is in the histogram: at least what was seen under way.
    expect(sample(ended, 'workqueue_work_duration_seconds_sum', queue('Items'))).toBeGreaterThan(
      later,
    );
  }, 60_000);
});

describe.skipIf(!etcdAvailable)('cosi run --metrics-addr --watch on etcd', () => {
  let etcd: EtcdServer;
  let dir: string;
  const processes: CosiProcess[] = [];
  beforeAll(async () => {
    etcd = await startEtcd();
  }, 60_000);
  afterAll(async () => {
    await etcd.stop();
  });
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-run-queue-metrics-etcd-'));
    await writeFile(path.join(dir, 'cosi.config.ts'), CONFIG);
    await writeFile(path.join(dir, 'items.yaml'), items({ a: 'ok', b: 'ok' }));
  });
  afterEach(async () => {
    for (const p of processes.splice(0)) {
      p.kill('SIGKILL');
      await p.exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('no counter goes down when a restart loads the config again', async () => {
    const state = `etcd://${etcd.endpoint.replace(/^http:\/\//, '')}/queue-metrics`;
    const p = spawnCosi([
      'run',
      '-f',
      dir,
      '--state',
      state,
      '--lease-ttl',
      '10s',
      '--watch',
      '--metrics-addr',
      '127.0.0.1:0',
    ]);
    processes.push(p);
    const url = await metricsOf(p);
    await p.waitForLine(/INFO {2}converged in/);
    const before = await scrape(url);
    const counters = totals(before);
    expect(counters.get('cosi_state_writes_total')).toBeGreaterThan(0);
    expect(counters.get(`workqueue_adds_total{${queue('Items')}}`)).toBe(2);
    // The config saved again: the runtime restarts, on a new connection to etcd.
    const config = path.join(dir, 'cosi.config.ts');
    await writeFile(config, `${await readFile(config, 'utf8')}\n// saved again\n`);
    await p.waitUntil(
      () => (p.stderr().match(/INFO {2}converged in/g) ?? []).length >= 2,
      30_000,
      'the restarted runtime to converge',
    );
    const after = totals(await scrape(url));
    for (const [series, value] of counters) {
      expect({ series, value: after.get(series) ?? 0 }).toEqual({
        series,
        value: expect.toSatisfy((v: number) => v >= value) as number,
      });
    }
    // The restarted runtime listed both items again: two adds more.
    expect(after.get(`workqueue_adds_total{${queue('Items')}}`)).toBe(4);
    expect(after.get('cosi_state_requests_total')).toBeGreaterThan(
      counters.get('cosi_state_requests_total') ?? 0,
    );
  }, 90_000);
});

/**
 * Every counter's samples, and each histogram's `_count`, by series (what the TYPE lines say:
 * prom-client's `nodejs_active_handles_total` is a gauge).
 */
function totals(metrics: string): Map<string, number> {
  const kinds = new Map<string, string>();
  for (const match of metrics.matchAll(/^# TYPE (\w+) (\w+)$/gm)) {
    if (match[1] && match[2]) kinds.set(match[1], match[2]);
  }
  const found = new Map<string, number>();
  for (const line of metrics.split('\n')) {
    const match = /^((\w+?)(_count)?(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (!match?.[1] || !match[2] || !match[4]) continue;
    const kind = kinds.get(match[2]);
    if ((match[3] === undefined && kind === 'counter') || (match[3] && kind === 'histogram')) {
      found.set(match[1], Number(match[4]));
    }
  }
  return found;
}
