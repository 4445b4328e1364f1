import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exitWithin, spawnCosi, type CosiProcess } from '../support/cosi-process.js';
import { saveFile } from '../support/save-file.js';
import { REPO } from './run-cli.js';

/**
 * `cosi watch` as users run it (the built CLI in a real process, its session in the worker):
 * round 1 shows once the files are watched, so one edit saved as soon as it shows is seen. One
 * edit, never repeated; every wait bounded.
 */
describe('cosi watch shows round 1 once its files are watched', () => {
  let dir: string;
  let p: CosiProcess | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-watch-ready-'));
    await cp(path.join(REPO, 'fixtures/vm-network'), dir, { recursive: true });
    // Files the watcher scans and the manifests skip (--ignore): its initial scan takes a while.
    for (let d = 0; d < 100; d++) {
      const sub = path.join(dir, 'bulk', `d${d}`);
      await mkdir(sub, { recursive: true });
      await Promise.all(
        Array.from({ length: 30 }, (_, f) => writeFile(path.join(sub, `f${f}.txt`), `${d}/${f}\n`)),
      );
    }
  });
  afterEach(async () => {
    p?.kill('SIGKILL');
    await p?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('an edit saved right after round 1 is printed gets round 2', async () => {
    p = spawnCosi(['watch', '-f', dir, '--ignore', 'bulk', '--plain', '--stable'], dir, {
      stdout: true,
    });
    await p.waitForStdout((out) => /^round 1: /m.test(out), 60_000);
    const vms = path.join(dir, 'vms.yaml');
    await saveFile(vms, (await readFile(vms, 'utf8')).replace('cpus: 6', 'cpus: 5'));
    const out = await p.waitForStdout((text) => /^round 2: /m.test(text), 30_000);
    expect(out).toMatch(/^round 2: vms\.yaml changed \| converged/m);
    p.kill('SIGINT');
    expect(await exitWithin(p, 20_000)).toBe(0);
  }, 120_000);
});
