/**
 * `expectGolden` with `update` after an `advance` (how a poller is tested): the state at the end
 * of the span is recorded though the poller's next visit is still due, as it was before an
 * advance had a report; a controller that failed during the span still refuses it.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestProject, expectGolden, type TestProject } from '../../src/testing/index.js';
import { ECHO, counters, echoConfig, pollerConfig } from './echo-project.js';

const open: TestProject[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function project(config: typeof echoConfig): Promise<{ p: TestProject; dir: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-golden-advance-'));
  dirs.push(dir);
  const p = await createTestProject({ config, manifests: counters(3), cwd: dir });
  open.push(p);
  return { p, dir };
}

describe('recording the golden tree after an advance', () => {
  it("records a poller's state at the end of the span", async () => {
    const { p, dir } = await project(pollerConfig);
    await p.advance('25s');
    expect(p.lastReport?.reason).toBe('max-time');
    await expectGolden(p, 'expected', { update: true });
    expect(await readdir(path.join(dir, 'expected'))).toContain('Visits.test.cosi.dev.yaml');
    await expectGolden(p, 'expected');
  });

  it('refuses a state a controller kept failing on during the span', async () => {
    const { p, dir } = await project(echoConfig);
    p.faults.failWrites({ when: (w) => w.owner === ECHO, times: Infinity, error: 'disk full' });
    await p.advance('5s');
    await expect(expectGolden(p, 'expected', { update: true })).rejects.toThrow(
      /^not recording expected: the controllers had not settled at the end of the last advance or wait \(failing\)[^]*disk full/,
    );
    await expect(readdir(path.join(dir, 'expected'))).rejects.toThrow();
  });
});
