import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etcdAvailable, startEtcd, type EtcdServer } from '../support/etcd-server.js';
import { cli, REPO } from './run-cli.js';

/** `cosi diff -q`: as `-q` on apply, check and the others, no summary line; the diff itself is kept. */
describe.skipIf(!etcdAvailable)('cosi diff -q', () => {
  let etcd: EtcdServer;
  let dir: string;
  beforeAll(async () => {
    etcd = await startEtcd();
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-diff-quiet-'));
    await cp(path.join(REPO, 'fixtures/vm-network'), dir, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await etcd.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints the changes and no summary', async () => {
    const state = `etcd://${etcd.endpoint.replace(/^http:\/\//, '')}/quiet`;
    const loud = await cli(['diff', '-f', '.', '--state', state], { cwd: dir });
    expect(loud.code).toBe(1);
    expect(loud.stderr).toMatch(/^cosi: \d+ to create, \d+ to change, \d+ to remove$/m);
    const quiet = await cli(['diff', '-f', '.', '--state', state, '-q'], { cwd: dir });
    expect(quiet.code).toBe(1);
    expect(quiet.stdout).toBe(loud.stdout);
    expect(quiet.stdout).toContain('+++ desired/');
    expect(quiet.stderr).not.toMatch(/^cosi: \d+ to create, \d+ to change, \d+ to remove$/m);
  }, 60_000);
});
