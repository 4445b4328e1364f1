import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assertAll,
  assertLength,
  expectConverged,
  expectFinding,
  assertNoResource,
  assertResource,
  createTestProject,
  expectNoResource,
  expectResource,
  teardownAndDestroy,
  type TestProject,
} from '../../src/testing/index.js';
import '../../src/testing/register-matchers.js';
import { Counter, Echo, counters, echoConfig } from './echo-project.js';

const REPO = path.resolve(import.meta.dirname, '../..');

let p: TestProject | undefined;
afterEach(async () => {
  await p?.close();
});

/** The echo project, converged: counters c1 (1) and c2 (2), echoed. */
async function echoed(): Promise<TestProject> {
  p = await createTestProject({ cwd: REPO, config: echoConfig, manifests: counters(1, 2) });
  await p.converge();
  return p;
}

describe('assertions given the type handle', () => {
  it('find the resource by the handle, as by a name', async () => {
    const project = await echoed();
    const echo = await expectResource(project, Echo, 'c2', { value: 2 });
    expect(echo.spec.value).toBe(2);
    await assertResource(project, Echo, 'c1', { value: 1 });
    await assertAll(project, Counter, (counter) => counter.spec.value > 0);
    await expectNoResource(project, Echo, 'c9');
    await assertNoResource(project, Echo, 'c9');
    await expect(expectResource(project, Echo, 'c1', { value: 7 })).rejects.toThrow(
      /expected the spec of Echoes\.test\.cosi\.dev\(default\/c1\) to match\n/,
    );
    // A document's shape for a type whose spec is not one: the fields it has are named.
    await expect(expectResource(project, 'echo', 'c1', { spec: { value: 1 } })).rejects.toThrow(
      'to match: it has no "spec" (its fields: value)',
    );
  });

  it('type-check the expected spec against the spec type (the typecheck fails otherwise)', async () => {
    const project = await echoed();
    const misspelt = { valu: 1 };
    // @ts-expect-error `valu` is not a field of an Echo's spec
    await expectResource(project, Echo, 'c1', misspelt).catch(() => undefined);
    // @ts-expect-error `value` is a number, not a string
    await assertResource(project, Echo, 'c1', { value: '1' }, { timeout: 0 }).catch(
      () => undefined,
    );
    await expectResource<{ value: number }>(project, 'echo', 'c1', { value: 1 });
    // @ts-expect-error a spec type given explicitly types the expectation too
    await expectResource<{ value: number }>(project, 'echo', 'c1', { value: true }).catch(
      () => undefined,
    );
    // Without a spec type, anything goes, as before.
    await expectResource(project, 'echo', 'c1', { value: 1 });
  });
});

describe('the project given the type handle', () => {
  it('gets, lists, edits and destroys by the handle, as by a name, typed by it', async () => {
    const project = await echoed();
    const echo = await project.get(Echo, 'c1');
    const value: number | undefined = echo?.spec.value;
    expect(value).toBe(1);
    expect((await project.list(Counter)).map((c) => c.spec.value)).toEqual([1, 2]);
    await project.edit(Counter, 'c1', (draft) => {
      draft.spec.value = 5;
    });
    await project.converge();
    await expectResource(project, Echo, 'c1', { value: 5 });
    await project.destroy(Counter, 'c2');
    await project.converge();
    expect((await project.list(Counter)).map((c) => c.metadata.id)).toEqual(['c1']);
    expect(project.pointer(Echo, 'c1')).toEqual(Echo.pointer('c1'));
    // @ts-expect-error `valu` is not a field of a Counter's spec
    await project.edit(Counter, 'c1', (draft) => (draft.spec.valu = 1)).catch(() => undefined);
  });
});

describe('a failed assertion', () => {
  /** The frames of what `run` throws (it must throw). */
  async function framesOf(run: () => Promise<unknown>): Promise<string[]> {
    try {
      await run();
    } catch (error) {
      return ((error as Error).stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));
    }
    throw new Error('expected it to throw');
  }

  it("points at the test that called it, not into cosi's code (a runner shows that frame)", async () => {
    const project = await echoed();
    const failing: (() => Promise<unknown>)[] = [
      () => expectResource(project, Echo, 'c1', { value: 9 }),
      () => expectNoResource(project, Echo, 'c1'),
      async () => expectConverged({ ...(await project.converge()), converged: false }),
      () => expectFinding(project, { code: 'reconcile-failed' }),
      () => assertResource(project, Echo, 'c1', { value: 9 }, { timeout: '1s' }),
      () => assertAll(project, Echo, (echo) => echo.spec.value > 5, { timeout: '1s' }),
      () => assertLength(project, Echo, 5, { timeout: '1s' }),
      () => assertNoResource(project, Echo, 'c1', { timeout: '1s' }),
    ];
    for (const run of failing) {
      const frames = await framesOf(run);
      expect(frames.length).toBeGreaterThan(0);
      expect(
        frames.filter((f) => f.includes('/src/testing/')),
        String(run),
      ).toEqual([]);
      expect(frames[0]).toContain('typed-expectations.test.ts');
    }
  });

  it('points a misuse (a misspelt type, an absence of a type never had) at the test too', async () => {
    const project = await echoed();
    const misuses: [string, () => Promise<unknown>][] = [
      ['UnknownTargetError', () => expectNoResource(project, 'Echoes.test.cosi.dve', 'c1')],
      ['UnknownTargetError', () => assertNoResource(project, 'Echoes.test.cosi.dve', 'c1')],
      [
        'UnknownTargetError',
        () => expect(project).not.toHaveResource('Echoes.test.cosi.dve', 'c1'),
      ],
      ['TypeResolutionError', () => expectResource(project, 'Ecko', 'c1', {})],
      ['TypeResolutionError', () => assertResource(project, 'Ecko', 'c1', {})],
      ['TypeResolutionError', () => expect(project).toHaveResource('Ecko', 'c1', {})],
      ['TypeResolutionError', () => teardownAndDestroy(project, 'Ecko', ['c1'])],
      ['Error', () => project.edit('counter', 'c9', () => undefined)],
      ['TypeResolutionError', () => project.edit('countr', 'c1', () => undefined)],
      ['Error', () => project.destroy('counter', ['c9'])],
      ['ManifestError', () => project.apply('metadata: { type: counter, id: c5 }\nspec: {\n')],
      [
        'ManifestError',
        () => createTestProject({ cwd: REPO, config: echoConfig, manifests: 'metadata: [1]\n' }),
      ],
    ];
    for (const [name, run] of misuses) {
      const error = await run().then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.name, String(run)).toBe(name);
      const frames = (error?.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));
      // No frame in cosi's code: a runner's code frame shows the test's line.
      expect(
        frames.filter((f) => f.includes(`${path.sep}src${path.sep}`)),
        String(run),
      ).toEqual([]);
      expect(
        frames.some((f) => f.includes('typed-expectations.test.ts')),
        String(run),
      ).toBe(true);
    }
  });
});
