import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineResource } from '../../src/index.js';
import '../../src/testing/register-matchers.js';
import { createTestProject, type TestProject } from '../../src/testing/index.js';

const REPO = path.resolve(import.meta.dirname, '../..');

describe('the matchers cosi/testing/matchers registers on vitest', () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await createTestProject({ cwd: REPO, manifests: 'fixtures/cli/failing-controller' });
  });
  afterAll(() => p.close());

  it('toConverge fails on a run that did not converge, saying why', async () => {
    const report = await p.converge();
    expect(() => expect(report).toConverge()).toThrow('one is a lonely number');
    expect(report).not.toConverge();
  });

  it('toHaveResource matches partially, and fails with the diff', async () => {
    await expect(p).toHaveResource('counter', 'start', { value: 1 });
    await expect(p).not.toHaveResource('counter', 'start', { value: 2 });
    await expect(expect(p).toHaveResource('counter', 'start', { value: 2 })).rejects.toThrow(
      '-value: 2\n+value: 1',
    );
  });

  it('not.toHaveResource fails on a type the project never had, rather than passing', async () => {
    await expect(expect(p).not.toHaveResource('Counters.example.og', 'start')).rejects.toThrow(
      'is not registered and no resource of it has existed',
    );
  });

  it("toHaveResource takes the type's handle, as every call that names a type does", async () => {
    const Counter = defineResource<{ value: number }>({ type: 'Counters.test.cosi.dev' });
    await expect(p).toHaveResource(Counter, 'start', { value: 1 });
    await expect(p).not.toHaveResource(Counter, 'nine');
    await expect(expect(p).not.toHaveResource(Counter, 'start')).rejects.toThrow(
      'not to exist with that spec, but it does',
    );
    const Misspelt = defineResource({ type: 'Counters.example.og' });
    await expect(expect(p).not.toHaveResource(Misspelt, 'start')).rejects.toThrow(
      'is not registered and no resource of it has existed',
    );
  });

  it('toHaveFinding finds what cosi check would report', async () => {
    await expect(p).toHaveFinding({ code: 'reconcile-failed', message: 'lonely' });
    await expect(p).not.toHaveFinding({ code: 'not-converged' });
  });
});
