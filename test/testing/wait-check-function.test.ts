/**
 * A wait whose check function answers `false` says what the check last saw, as Gomega's
 * `Eventually` prints the last value: the resource's version and spec, never a sensitive one.
 */
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assertAll,
  assertResource,
  createTestProject,
  type TestProject,
} from '../../src/testing/index.js';
import { counters, echoConfig } from './echo-project.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const open: TestProject[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

async function started(...options: Parameters<typeof createTestProject>): Promise<TestProject> {
  const p = await createTestProject(...options);
  open.push(p);
  return p;
}

/** What `run` rejects with (it must reject). */
async function rejection(run: () => Promise<unknown>): Promise<Error> {
  return run().then(
    () => {
      throw new Error('expected it to reject');
    },
    (error: unknown) => error as Error,
  );
}

describe('a check function that answers false', () => {
  it('assertResource names the version and spec it last saw', async () => {
    const p = await started({ config: echoConfig, manifests: counters(3) });
    const error = await rejection(() =>
      assertResource<{ value: number }>(p, 'echo', 'c1', (echo) => echo.spec.value > 10, {
        timeout: '5s',
      }),
    );
    expect(error.message).toMatch(
      /^Echoes\.test\.cosi\.dev\(default\/c1\) failed its check \(waited .* of simulated time/,
    );
    expect(error.message).toMatch(/\n\nthe check last saw version \d+, spec:\n {2}value: 3$/);
  });

  it('assertAll names it for the first resource that fails', async () => {
    const p = await started({ config: echoConfig, manifests: counters(1, 2) });
    const error = await rejection(() =>
      assertAll<{ value: number }>(p, 'echo', (echo) => echo.spec.value < 2, { timeout: '5s' }),
    );
    expect(error.message).toContain('Echoes.test.cosi.dev(default/c2) failed its check');
    expect(error.message).toMatch(/spec:\n {2}value: 2$/);
  });

  it('shows no spec of a sensitive type', async () => {
    const p = await started({ cwd: REPO, manifests: 'fixtures/cli/sensitive' });
    const error = await rejection(() =>
      assertResource(p, 'secret', 'db-password', () => false, { timeout: '1s' }),
    );
    expect(error.message).toContain('spec:\n  (sensitive: not shown)');
    expect(error.message).not.toContain('hunter2');
  });
});
