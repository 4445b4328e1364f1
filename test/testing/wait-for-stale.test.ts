/**
 * A wait (`assertResource`, `assertNoResource`, `assertLength`, `assertAll`) lets the controllers
 * catch up with an apply or edit before its first check: checked at once, it passed on the value
 * from before the edit, or on the absence of an output the controllers were about to make.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  assertAll,
  assertLength,
  assertNoResource,
  assertResource,
  createTestProject,
  type TestProject,
} from '../../src/testing/index.js';
import { counters, echoConfig } from './echo-project.js';

const open: TestProject[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

async function converged(): Promise<TestProject> {
  const p = await createTestProject({ config: echoConfig, manifests: counters(3) });
  open.push(p);
  await p.converge();
  return p;
}

describe('a wait after an edit the controllers have not run on yet', () => {
  it('assertResource does not pass on the value from before the edit', async () => {
    const p = await converged();
    await p.edit<{ value: number }>('counter', 'c1', (d) => {
      d.spec.value = 5;
    });
    await expect(assertResource(p, 'echo', 'c1', { value: 3 })).rejects.toThrow(
      'expected the spec of Echoes.test.cosi.dev(default/c1) to match',
    );
    await assertResource(p, 'echo', 'c1', { value: 5 });
  });

  it('assertNoResource does not pass on an output the controllers are about to make', async () => {
    const p = await converged();
    await p.apply({ metadata: { type: 'counter', id: 'c9' }, spec: { value: 1 } });
    await expect(assertNoResource(p, 'echo', 'c9')).rejects.toThrow(
      'expected Echoes.test.cosi.dev(default/c9) not to exist, but it does',
    );
  });

  it('assertLength and assertAll count and check what the controllers made of it', async () => {
    const p = await converged();
    await p.apply({ metadata: { type: 'counter', id: 'c9' }, spec: { value: 1 } });
    await expect(assertLength(p, 'echo', 1)).rejects.toThrow(
      'expected 1 resources of Echoes.test.cosi.dev, found 2: c1, c9',
    );
    await p.edit<{ value: number }>('counter', 'c1', (d) => {
      d.spec.value = 1;
    });
    await assertAll(p, 'echo', { value: 1 });
    await expect(assertAll(p, 'echo', { value: 3 })).rejects.toThrow('to match');
  });

  it('assertAll checks an output the controllers made meanwhile, listing the type at each check', async () => {
    const p = await converged();
    await p.apply({ metadata: { type: 'counter', id: 'c9' }, spec: { value: 1 } });
    await expect(assertAll(p, 'echo', { value: 3 })).rejects.toThrow(
      'expected the spec of Echoes.test.cosi.dev(default/c9) to match',
    );
  });

  it('a project never converged runs its controllers before the first check', async () => {
    const p = await createTestProject({ config: echoConfig, manifests: counters(3) });
    open.push(p);
    await expect(assertNoResource(p, 'echo', 'c1')).rejects.toThrow('not to exist, but it does');
  });
});
