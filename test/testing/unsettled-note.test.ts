/**
 * An expectation that fails after a convergence that did not settle says why it did not: a
 * controller that kept failing on the resource, or a reconcile that never ended, is most often
 * why the resource is missing or differs, and the diff alone points at a wrong value instead.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestProject, expectResource, type TestProject } from '../../src/testing/index.js';
import { runScenarioFiles } from '../../src/testing/scenario/run-scenario-files.js';
import { ECHO, counters, echoConfig } from './echo-project.js';

const open: TestProject[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

async function failure(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected it to throw');
}

describe('expectResource after a convergence that did not settle', () => {
  it('names the controller that kept failing and its error, under the diff', async () => {
    const p = await createTestProject({ config: echoConfig, manifests: counters(3, 4) });
    open.push(p);
    p.faults.failWrites({
      when: (w) => w.owner === ECHO && w.pointer.id === 'c1',
      times: Infinity,
      error: 'disk full',
    });
    await p.converge();
    const missing = await failure(() => expectResource(p, 'echo', 'c1', { value: 3 }));
    expect(missing.message).toMatch(
      /^expected Echoes\.test\.cosi\.dev\(default\/c1\) to exist, but it does not \(existing ids: c2\)\nthe last convergence did not settle \(failing\)/,
    );
    expect(missing.message).toMatch(
      /\n {2}EchoController could not reconcile Counters\.test\.cosi\.dev\(default\/c1\) \(\d+ attempts\): .*disk full/,
    );
    // A resource that differs gets it too, before the diff.
    const differs = await failure(() => expectResource(p, 'echo', 'c2', { value: 5 }));
    expect(differs.message).toMatch(
      /^expected the spec of Echoes\.test\.cosi\.dev\(default\/c2\) to match\nthe last convergence did not settle \(failing\)[^]*disk full[^]*\n\n--- /,
    );
  });

  it('says nothing more when the convergence settled', async () => {
    const p = await createTestProject({ config: echoConfig, manifests: counters(3) });
    open.push(p);
    await p.converge();
    const differs = await failure(() => expectResource(p, 'echo', 'c1', { value: 5 }));
    expect(differs.message.split('\n')[0]).toBe(
      'expected the spec of Echoes.test.cosi.dev(default/c1) to match',
    );
    expect(differs.message).not.toContain('did not settle');
  });
});

describe('expectResource of a manifest where a controller writes its output', () => {
  it('says it is an output-collision (the manifest wins), as cosi check reports it', async () => {
    const p = await createTestProject({ config: echoConfig, manifests: counters(3) });
    open.push(p);
    // A controller-runtime habit: seed the output the controller "already wrote".
    await p.apply('metadata: { type: echo, id: c1 }\nspec: { value: 1 }\n');
    await p.converge();
    const differs = await failure(() => expectResource(p, 'echo', 'c1', { value: 3 }));
    const lines = differs.message.split('\n');
    expect(lines[0]).toBe('expected the spec of Echoes.test.cosi.dev(default/c1) to match');
    expect(lines[1]).toBe(
      '<apply 1>:1:1: error[output-collision]: Echoes.test.cosi.dev(default/c1) is also written by controller "EchoController": a manifest cannot hold a controller\'s output (the manifest wins and the controller fails or is ignored); remove it from the manifests or change its id',
    );
    expect(differs.message).toContain('-value: 3\n+value: 1');
  });
});

describe('a scenario expectation after a convergence that did not settle', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("says why on the finding's line", async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-unsettled-'));
    await writeFile(
      path.join(dir, 'cosi.config.mjs'),
      `export default {
  controllers: [{
    name: 'NicController',
    settings: {
      inputs: [{ namespace: 'default', type: 'VMs.example.org', kind: 'primary' }],
      outputs: [{ type: 'NICs.example.org', kind: 'exclusive' }],
    },
    reconcile: async () => { throw new Error('no bridge for it'); },
    mapInput: async () => [],
  }],
};
`,
    );
    await writeFile(
      path.join(dir, 'vms.yaml'),
      `metadata: { type: ResourceDefinitions.meta.cosi.dev, id: vms.example.org }
spec: { type: VMs.example.org, displayType: VM, defaultNamespace: default }
---
metadata: { type: ResourceDefinitions.meta.cosi.dev, id: nics.example.org }
spec: { type: NICs.example.org, displayType: NIC, defaultNamespace: default }
---
metadata: { type: vm, id: web-1 }
spec: {}
`,
    );
    await writeFile(
      path.join(dir, 'nic.cosi-test.yaml'),
      `name: nics
manifests: [vms.yaml]
steps:
  - expect: { metadata: { type: NICs.example.org, id: web-1 } }
`,
    );
    const run = await runScenarioFiles([], { cwd: dir });
    const findings = run.result.cases.flatMap((c) => c.findings);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ code: 'missing-resource', line: 4 });
    expect(findings[0]?.message).toMatch(
      /^expected NICs\.example\.org\(default\/web-1\), but it does not exist \(no resource of that type exists\) \(the last convergence did not settle \(failing\)[^]*; NicController could not reconcile VMs\.example\.org\(default\/web-1\) \(\d+ attempts\): no bridge for it/,
    );
  });
});
