/**
 * `advance` and the waits are how the docs test timed behaviour (a poller, a backoff), so what
 * the controllers did during them is what the assertions report: a controller that failed on
 * every visit of an `advance` was invisible (`expectFinding` found none, `expectConverged` said
 * the project "never ran", `expectResource` and `assertResource` showed a bare diff), and after a
 * `converge()` the findings were those of that earlier convergence.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  assertResource,
  createTestProject,
  expectConverged,
  expectFinding,
  expectResource,
  type TestProject,
} from '../../src/testing/index.js';
import { ECHO, POLLER, counters, echoConfig, pollerConfig } from './echo-project.js';

const open: TestProject[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

async function failure(run: () => unknown): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected it to throw');
}

/** An echo project whose controller fails every write of c1's echo, never converged. */
async function failingOnC1(): Promise<TestProject> {
  const p = await createTestProject({ config: echoConfig, manifests: counters(3, 4) });
  open.push(p);
  p.faults.failWrites({
    when: (w) => w.owner === ECHO && w.pointer.id === 'c1',
    times: Infinity,
    error: 'disk full',
  });
  return p;
}

const couldNot =
  /EchoController could not reconcile Counters\.test\.cosi\.dev\(default\/c1\) \(\d+ attempts\): .*disk full/;

describe('the assertions after an advance, with a controller failing meanwhile', () => {
  it('expectFinding finds its reconcile-failed finding', async () => {
    const p = await failingOnC1();
    await p.advance('5s');
    const [found] = await expectFinding(p, { code: 'reconcile-failed', message: 'disk full' });
    expect(found?.message).toContain('Counters.test.cosi.dev(default/c1)');
  });

  it('expectConverged says which controller failed on which item, not that it never ran', async () => {
    const p = await failingOnC1();
    await p.advance('5s');
    const error = await failure(() => expectConverged(p));
    expect(error.message).toMatch(
      /^expected the controllers to converge, but they did not \(failing\)/,
    );
    expect(error.message).toMatch(couldNot);
    expect(p.lastReport?.elapsed).toBe(5_000);
  });

  it('expectResource says why under its first line', async () => {
    const p = await failingOnC1();
    await p.advance('5s');
    const error = await failure(() => expectResource(p, 'echo', 'c1', { value: 3 }));
    // Of the advance, not of a convergence: there was none.
    expect(error.message).toMatch(
      /^expected Echoes\.test\.cosi\.dev\(default\/c1\) to exist, but it does not \(existing ids: c2\)\nthe controllers had not settled at the end of the last advance or wait \(failing\)/,
    );
    expect(error.message).toMatch(couldNot);
  });

  it('assertResource says why its wait ended without a match, as Eventually shows the last error', async () => {
    const p = await failingOnC1();
    const error = await failure(() => assertResource(p, 'echo', 'c1', { value: 3 }));
    expect(error.message).toMatch(/^expected Echoes\.test\.cosi\.dev\(default\/c1\) to exist/);
    expect(error.message).toMatch(couldNot);
  });

  it('the failure that started after a settled convergence is reported, not the stale settlement', async () => {
    const p = await createTestProject({ config: echoConfig, manifests: counters(3) });
    open.push(p);
    expectConverged(await p.converge());
    p.faults.failWrites({ when: (w) => w.owner === ECHO, times: Infinity, error: 'disk full' });
    await p.edit<{ value: number }>('counter', 'c1', (d) => {
      d.spec.value = 7;
    });
    await p.advance('2s');
    const error = await failure(() => expectResource(p, 'echo', 'c1', { value: 7 }));
    expect(error.message).toMatch(couldNot);
    await expectFinding(p, { code: 'reconcile-failed', message: 'disk full' });
  });
});

describe('the report of an advance with no failure', () => {
  it('is converged when the controllers settled within it', async () => {
    const p = await createTestProject({ config: echoConfig, manifests: counters(3) });
    open.push(p);
    await p.advance(0);
    expectConverged(p);
    expect(p.lastReport).toMatchObject({ converged: true, reason: 'quiescent' });
  });

  it('names a poller that kept writing as what kept changing', async () => {
    const p = await createTestProject({ config: pollerConfig, manifests: counters(1) });
    open.push(p);
    await p.advance(0);
    await p.advance('25s');
    await expectResource(p, 'Visits.test.cosi.dev', 'c1', { count: 3 });
    const error = await failure(() => expectConverged(p));
    expect(error.message).toMatch(/did not \(max-time\)/);
    expect(error.message).toContain(`${POLLER} had 1 item waiting to be reconciled again`);
    expect(p.lastReport).toMatchObject({ reconciles: 2, writes: 2, elapsed: 25_000 });
  });
});
