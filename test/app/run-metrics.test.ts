import { describe, expect, it } from 'vitest';
import { RunMetrics } from '../../src/app/run-metrics.js';

describe('RunMetrics', () => {
  const metrics = (): RunMetrics =>
    new RunMetrics({
      controllers: () => ['Requeuer'],
      workload: () => undefined,
      leading: () => true,
    });
  const value = (body: string, series: string): number | undefined => {
    const line = body.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.split(' ').pop());
  };

  it("counts { requeue: true } as controller-runtime's requeue, and its retries", async () => {
    const m = metrics();
    m.reconciled('Requeuer', 'requeue', 0.01, true);
    m.reconciled('Requeuer', 'requeue_after', 0.01, false);
    m.reconciled('Requeuer', 'error', 0.01, true);
    const { body } = await m.scrape();
    const total = (result: string): number | undefined =>
      value(body, `controller_runtime_reconcile_total{controller="Requeuer",result="${result}"}`);
    expect([total('success'), total('error'), total('requeue'), total('requeue_after')]).toEqual([
      0, 1, 1, 1,
    ]);
    expect(value(body, 'workqueue_retries_total{name="Requeuer",controller="Requeuer"}')).toBe(2);
  });

  it('has every series of each controller at 0 before its first reconcile', async () => {
    const { body } = await metrics().scrape();
    expect(value(body, 'workqueue_retries_total{name="Requeuer",controller="Requeuer"}')).toBe(0);
    expect(
      value(body, 'controller_runtime_reconcile_total{controller="Requeuer",result="requeue"}'),
    ).toBe(0);
  });
});
