import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assertResource,
  createTestProject,
  expectConverged,
  expectFinding,
  expectResource,
  type TestProject,
} from '../../src/testing/index.js';
import { ECHO, counters, echoConfig } from './echo-project.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const EPOCH = Date.UTC(2025, 0, 1);

const open: TestProject[] = [];
async function project(options: Parameters<typeof createTestProject>[0]): Promise<TestProject> {
  const p = await createTestProject({ cwd: REPO, ...options });
  open.push(p);
  return p;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

const echoReport = (p: TestProject) => p.lastReport?.controllers.find((c) => c.name === ECHO);

describe('faults in the state', () => {
  it('a controller retries failed writes with backoff, on the simulated clock, and recovers', async () => {
    const p = await project({ config: echoConfig, manifests: counters(7) });
    const fault = p.faults.failWrites({ when: (w) => w.owner === ECHO, times: 2 });
    expectConverged(await p.converge());
    expect(fault.hits).toBe(2);
    expect(echoReport(p)?.errors).toBe(2);
    await expectResource(p, 'echo', 'c1', { value: 7 });
    // Two backoffs (500 ms, then 750 ms) passed on the simulated clock.
    expect(p.now() - EPOCH).toBeGreaterThanOrEqual(1250);
    await expectFinding(p, { code: 'controller-recovered', message: 'injected fault' });
  });

  it('a write that always fails makes the item fail, as cosi check reports it', async () => {
    const p = await project({ config: echoConfig, manifests: counters(7) });
    p.faults.failWrites({
      when: (w) => w.pointer.type === 'Echoes.test.cosi.dev',
      times: Infinity,
      error: 'disk full',
    });
    const report = await p.converge();
    expect(report.reason).toBe('failing');
    expect(() => expectConverged(report)).toThrow('disk full');
    await expectFinding(p, { code: 'reconcile-failed', message: 'disk full' });
  });

  it('a conflict makes modify read again and retry, without an error', async () => {
    const p = await project({ config: echoConfig, manifests: counters(1) });
    await p.converge();
    await p.edit<{ value: number }>('counter', 'c1', (d) => {
      d.spec.value = 2;
    });
    const fault = p.faults.conflictWrites({
      when: (w) => w.operation === 'update' && w.owner === ECHO,
    });
    expectConverged(await p.converge());
    expect(fault.hits).toBe(1);
    expect(echoReport(p)?.errors).toBe(0);
    await expectResource(p, 'echo', 'c1', { value: 2 });
  });

  it('a stalled write holds its reconcile for that much simulated time', async () => {
    const p = await project({ config: echoConfig, manifests: counters(5) });
    p.faults.stallWrites({ when: (w) => w.owner === ECHO, for: 30_000 });
    const report = await p.converge();
    expectConverged(report);
    expect(report.elapsed).toBe(30_000);
    await expectResource(p, 'echo', 'c1', { value: 5 });
  });

  it('assertResource waits on the simulated clock while the controller retries', async () => {
    const p = await project({ config: echoConfig, manifests: counters(3) });
    p.faults.failWrites({ when: (w) => w.owner === ECHO, times: 3 });
    await assertResource(p, 'echo', 'c1', { value: 3 });
    expect(p.now() - EPOCH).toBe(500 + 750 + 1125);
  });

  it('assertResource gives up after its timeout with the last failure', async () => {
    const p = await project({ config: echoConfig, manifests: counters(3) });
    p.faults.failWrites({ when: (w) => w.owner === ECHO, times: 3 });
    await expect(assertResource(p, 'echo', 'c1', { value: 3 }, { timeout: '1s' })).rejects.toThrow(
      /to exist, but it does not .*waited 500ms of simulated time/,
    );
  });
});

describe('faults in controllers', () => {
  it("a queue controller's next reconcile throws, and it is retried", async () => {
    const p = await project({ config: echoConfig, manifests: counters(1) });
    await p.converge();
    p.controllers.failNextReconcile(ECHO, { error: 'boom' });
    await p.edit<{ value: number }>('counter', 'c1', (d) => {
      d.spec.value = 9;
    });
    expectConverged(await p.converge());
    expect(echoReport(p)?.errors).toBe(1);
    expect(echoReport(p)?.lastError?.message).toBe('boom');
    expect(p.controllers.pending(ECHO)).toBe(0);
    await expectResource(p, 'echo', 'c1', { value: 9 });
  });

  it('a whole-world controller throws from its next wakeup and is restarted', async () => {
    const p = await project({ manifests: 'fixtures/vm-network' });
    await p.converge();
    const name = 'vmnet.NetworkConfigController';
    p.controllers.failNextReconcile(name);
    const report = await p.converge();
    expectConverged(report);
    expect(report.controllers.find((c) => c.name === name)?.errors).toBe(1);
    await p.edit<{ image: string }>('vm', 'web-2', (d) => {
      d.spec.image = 'alpine';
    });
    expectConverged(await p.converge());
    await expectResource(p, 'NetworkConfig', 'web-2', { bridge: 'br-alpine' });
  });

  it('names the registered controllers when asked for an unknown one', async () => {
    const p = await project({ config: echoConfig, manifests: counters(1) });
    expect(() => p.controllers.failNextReconcile('Echo')).toThrow(
      'no controller named "Echo" is registered (registered: EchoController)',
    );
  });
});
