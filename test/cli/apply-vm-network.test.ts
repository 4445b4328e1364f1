import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { cli, REPO } from './run-cli.js';

interface Doc {
  metadata: {
    type: string;
    id: string;
    owner: string;
    finalizers?: string[];
    ownerReferences?: unknown[];
  };
  spec: Record<string, unknown>;
}

const docs = (yaml: string): Doc[] => parseAllDocuments(yaml).map((d) => d.toJS() as Doc);

describe('cosi apply on the vm-network example', () => {
  it('runs transform, qtransform and builder controllers to convergence', async () => {
    const r = await cli(['apply', '-f', 'fixtures/vm-network', '-o', 'yaml', '--stable']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^converged, 13 resources, 3 controllers \(fixtures\/vm-network\/cosi\.config\.ts\), \d+ reconciles, \d+ writes, virtual time 0ms\n$/,
    );
    const byType = (type: string) => docs(r.stdout).filter((d) => d.metadata.type === type);
    expect(byType('NetworkConfigs.example.org').map((d) => [d.metadata.id, d.spec.bridge])).toEqual(
      [
        ['db-1', 'br-postgres'],
        ['web-1', 'br-debian'],
        ['web-2', 'br-debian'],
      ],
    );
    expect(byType('Placements.example.org').map((d) => [d.metadata.id, d.spec.fits])).toEqual([
      ['db-1', false],
      ['web-1', true],
      ['web-2', true],
    ]);
    const statuses = byType('HostStatuses.example.org');
    expect(statuses.map((d) => [d.metadata.id, d.spec.allocated, d.spec.free, d.spec.vms])).toEqual(
      [
        ['node-a', 4, 4, ['web-1', 'web-2']],
        ['node-b', 0, 4, []],
      ],
    );
    expect(statuses[0]!.metadata.ownerReferences).toEqual([
      { type: 'Hosts.example.org', id: 'node-a', controller: true },
    ]);
    const vm = byType('VMs.example.org')[0]!;
    expect(vm.metadata.owner).toBe('');
    expect(vm.metadata.finalizers?.sort()).toEqual([
      'PlacementController',
      'vmnet.NetworkConfigController',
    ]);
  });

  it('gives byte-identical output and summary on every run with --stable', async () => {
    const args = ['apply', '-f', 'fixtures/vm-network', '-o', 'yaml', '--stable'];
    const first = await cli(args);
    const second = await cli(args);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toBe(first.stderr);
  });

  it('prints one table per type with the print columns', async () => {
    const r = await cli(['apply', '-f', 'fixtures/vm-network', '-t', 'nc']);
    expect(r.stdout.split('\n')[0]).toMatch(
      /^NAMESPACE\s+TYPE\s+ID\s+VERSION\s+OWNER\s+PHASE\s+HOSTNAME\s+BRIDGE$/,
    );
    expect(r.stdout).toMatch(
      /default\s+NetworkConfig\s+web-1\s+1\s+vmnet\.NetworkConfigController\s+running\s+web-1\s+br-debian/,
    );
  });

  it('gets one resource with a JSONPath template', async () => {
    const r = await cli([
      'get',
      'hoststatus',
      'node-a',
      '-f',
      'fixtures/vm-network',
      '-o',
      'jsonpath={.spec.free}/{.metadata.owner}',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('4/HostStatusController\n');
  });

  it('exits 1 for a resource that does not exist', async () => {
    const r = await cli(['get', 'vm', 'nope', '-f', 'fixtures/vm-network']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not found');
  });

  it('prints controller logs to stderr with -v', async () => {
    const r = await cli(['apply', '-f', 'fixtures/cli/failing-controller', '-v', '-q']);
    expect(r.stderr).toMatch(
      /ERROR EchoController reconcile failed resource=Counters\.test\.cosi\.dev\(default\/start\)/,
    );
  });
});

describe('exit codes', () => {
  it('exits 3 when controllers never settle, naming both and what they fight over', async () => {
    const r = await cli(['apply', '-f', 'fixtures/cli/ping-pong', '--max-writes', '500']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('did not converge (write bound hit)');
    expect(r.stderr).toMatch(/Echoes\.test\.cosi\.dev\(default\/ping\): \d+ writes by Ping/);
    expect(r.stderr).toMatch(/Echoes\.test\.cosi\.dev\(default\/pong\): \d+ writes by Pong/);
    // Which window the counts cover, and what the last write of each changed.
    expect(r.stderr).toContain('kept changing (counted over the last 501 writes):');
    expect(r.stderr).toMatch(
      /default\/ping\): \d+ writes by Ping; the last one changed \/spec\/value$/m,
    );
  });

  it('exits 3 at the time bound, naming a controller that requeues without writing and its items', async () => {
    const r = await cli(['apply', '-f', 'fixtures/cli/poller', '--timeout', '10m']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('did not converge (time bound hit)');
    expect(r.stderr).toMatch(
      /^PollerController kept requeueing 1 item \(\d+ reconciles, 0 writes\): Counters\.test\.cosi\.dev\(default\/start\)$/m,
    );
    const check = await cli(['check', '-f', 'fixtures/cli/poller', '--timeout', '10m']);
    expect(check.stdout).toContain(
      'PollerController kept requeueing Counters.test.cosi.dev(default/start)',
    );
  });

  it('exits 0 for a periodic resync (requeueAfter after making sure of its output): steady', async () => {
    const r = await cli(['apply', '-f', 'fixtures/cli/resync']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^converged \(steady: 1 item requeued periodically, changing nothing\), 2 resources, /m,
    );
    expect(r.stdout).toMatch(/^default\s+Echo\s+start\s+1\s+ResyncController\s+running$/m);
    const check = await cli(['check', '-f', 'fixtures/cli/resync']);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('convergence: 1 passed, 0 failed');
  });

  it('check warns of a whole-world controller whose run returned: it reacts to nothing more', async () => {
    const r = await cli(['check', '-f', 'fixtures/cli/run-returns']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "fixtures/cli/run-returns/cosi.config.ts: warning[controller-stopped]: OnceController's run returned: it no longer reacts to changes of its inputs",
    );
    const strict = await cli(['check', '-f', 'fixtures/cli/run-returns', '--strict']);
    expect(strict.code).toBe(1);
  });

  it('exits 1 when a controller keeps failing, with its last error and the item', async () => {
    const r = await cli(['apply', '-f', 'fixtures/cli/failing-controller']);
    expect(r.code).toBe(1);
    // A finding (exit 1), not a bound's "did not converge" (exit 3).
    expect(r.stderr).toMatch(/^settled with failing controllers, 1 resource, /m);
    expect(r.stderr).not.toContain('did not converge');
    expect(r.stderr).toContain('EchoController: 10 errors (failed)');
    expect(r.stderr).toContain(
      'Counters.test.cosi.dev(default/start): 10 attempts: cannot echo start',
    );
    // Where the controller threw, in the project's own TypeScript.
    expect(r.stderr).toContain(
      'last error: cannot echo start: one is a lonely number (at fixtures/cli/failing-controller/cosi.config.ts:15:',
    );
  });

  it('exits 2 when the config cannot load, naming the file and the cause', async () => {
    const r = await cli(['apply', '-f', 'fixtures/cli/broken-config']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'cosi: fixtures/cli/broken-config/cosi.config.ts:6:9: cannot load the config: settings.json is missing\n',
    );
  });

  it('exits 2 when the controllers cannot be registered together', async () => {
    const r = await cli(['apply', '-f', 'fixtures/cli/conflicting-controllers']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'controllers "First" and "Second" both claim exclusive output Echoes.test.cosi.dev',
    );
    // check's report: each conflict a finding of its own, not a literal "\n".
    const check = await cli(['check', '-f', 'fixtures/cli/conflicting-controllers']);
    expect(check.code).toBe(2);
    expect(check.stdout).toMatch(
      /error\[config-error\]: cannot register the controllers: controllers "First" and "Second" both claim/,
    );
    expect(check.stdout).not.toContain('\\n');
  });

  it('runs as a real process through bin/cosi.js with the same exit codes', async () => {
    const run = promisify(execFile);
    const bin = path.join(REPO, 'bin/cosi.js');
    const ok = await run(
      process.execPath,
      [bin, 'apply', '-f', 'fixtures/vm-network', '-o', 'json', '--stable'],
      { cwd: REPO },
    );
    expect((JSON.parse(ok.stdout) as { items: unknown[] }).items.length).toBe(13);
    await expect(
      run(process.execPath, [bin, 'apply', '-f', 'fixtures/cli/ping-pong', '--max-writes', '300'], {
        cwd: REPO,
      }),
    ).rejects.toMatchObject({ code: 3 });
    await expect(
      run(process.execPath, [bin, 'apply', '-f', 'fixtures/invalid/unknown-type'], { cwd: REPO }),
    ).rejects.toMatchObject({ code: 1 });
    await expect(run(process.execPath, [bin, 'nonsense'], { cwd: REPO })).rejects.toMatchObject({
      code: 2,
    });
  }, 30_000);
});
