import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CosiAssertionError,
  ManifestError,
  createTestProject,
  expectConverged,
  expectFinding,
  expectNoResource,
  expectResource,
  assertNoResource,
  assertResource,
  teardownAndDestroy,
  type TestProject,
} from '../../src/testing/index.js';
import { createQTransformController, type QController } from '../../src/index.js';
import { Counter, Echo, POLLER, counters, echoConfig, pollerConfig } from './echo-project.js';

const REPO = path.resolve(import.meta.dirname, '../..');

const open: TestProject[] = [];
async function project(options: Parameters<typeof createTestProject>[0]): Promise<TestProject> {
  const p = await createTestProject({ cwd: REPO, ...options });
  open.push(p);
  return p;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

/** A queue controller whose reconcile never settles. */
const hanging: QController = {
  name: 'HangingController',
  settings: {
    inputs: [{ namespace: Counter.namespace, type: Counter.type, kind: 'primary' }],
    outputs: [{ type: Echo.type, kind: 'exclusive' }],
  },
  reconcile: () => new Promise<void>(() => undefined),
  mapInput: async () => [],
};

/** The message of what `run` throws (it must throw). */
async function thrown(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected it to throw');
}

describe('createTestProject on the vm-network fixture', () => {
  it('converges the fixture and finds its config beside the manifests', async () => {
    const p = await project({ manifests: 'fixtures/vm-network' });
    expect(p.config?.file).toBe(path.join(REPO, 'fixtures/vm-network/cosi.config.ts'));
    expectConverged(await p.converge());
    await expectResource(p, 'NetworkConfig', 'web-1', { hostname: 'web-1', bridge: 'br-debian' });
    await expectResource(p, 'Placement', 'db-1', { host: 'node-b', fits: false });
    await expectResource(p, 'HostStatus', 'node-a', { allocated: 4, vms: ['web-1', 'web-2'] });
  });

  it('runs on the simulated clock from 2025-01-01, so timestamps are reproducible', async () => {
    const p = await project({ manifests: 'fixtures/vm-network' });
    await p.converge();
    const net = await p.get('NetworkConfig', 'web-1');
    expect(net?.metadata.created).toBe(Date.UTC(2025, 0, 1));
  });

  it('applies an edit of a manifest, and the controllers follow it', async () => {
    const p = await project({ manifests: 'fixtures/vm-network' });
    await p.converge();
    await p.edit<{ image: string }>('vm', 'web-1', (draft) => {
      draft.spec.image = 'alpine';
    });
    expectConverged(await p.converge());
    await expectResource(p, 'NetworkConfig', 'web-1', { bridge: 'br-alpine' });
  });

  it('applies YAML text beside the manifests it started from', async () => {
    const p = await project({ manifests: 'fixtures/vm-network' });
    await p.converge();
    await p.apply(
      'metadata: { type: vm, id: web-3 }\nspec: { cpus: 1, image: arch, host: node-a }\n',
    );
    await p.converge();
    await expectResource(p, 'NetworkConfig', 'web-3', { bridge: 'br-arch' });
    await expectResource(p, 'NetworkConfig', 'web-1', { bridge: 'br-debian' });
  });

  it('tears a manifest down through its finalizers and destroys it (teardownAndDestroy)', async () => {
    const p = await project({ manifests: 'fixtures/vm-network' });
    await p.converge();
    await teardownAndDestroy(p, 'vm', ['web-2']);
    await expectNoResource(p, 'vm', 'web-2');
    await expectNoResource(p, 'NetworkConfig', 'web-2');
    await expectResource(p, 'HostStatus', 'node-a', { allocated: 2, vms: ['web-1'] });
  });

  it('counts generations as a cluster does: status writes and finalizers keep them, spec edits count', async () => {
    const p = await project({ manifests: 'fixtures/kro-webapp' });
    expectConverged(await p.converge());
    // kro wrote the blog's status and its finalizer: still the first generation.
    const blog = await p.get<{ status: { conditions: { observedGeneration: number }[] } }>(
      'webapp',
      'blog',
    );
    expect(blog?.metadata).toMatchObject({ generation: 1, finalizers: ['kro.run/finalizer'] });
    expect(blog?.metadata.version).toBeGreaterThan(2);
    expect(blog?.spec.status.conditions.map((c) => c.observedGeneration)).toEqual([1, 1, 1, 1]);
    expect((await p.get('deploy', 'blog'))?.metadata.generation).toBe(1);
    await p.edit<{ spec: { replicas?: number } }>('webapp', 'blog', (draft) => {
      draft.spec.spec.replicas = 3;
    });
    expectConverged(await p.converge());
    const edited = await p.get<{ status: { conditions: { observedGeneration: number }[] } }>(
      'webapp',
      'blog',
    );
    expect(edited?.metadata.generation).toBe(2);
    expect(edited?.spec.status.conditions.map((c) => c.observedGeneration)).toEqual([2, 2, 2, 2]);
    // The Deployment kro renders changed its replicas: its own second generation.
    expect((await p.get('deploy', 'blog'))?.metadata.generation).toBe(2);
    expect((await p.get('deploy', 'shop'))?.metadata.generation).toBe(1);
  });

  it("holds a kro instance with kro's finalizer until what it rendered is gone, as kro does", async () => {
    const p = await project({ manifests: 'fixtures/kro-webapp' });
    expectConverged(await p.converge());
    expect((await p.get('webapp', 'blog'))?.metadata.finalizers).toEqual(['kro.run/finalizer']);
    // Another party holds the blog's Deployment: the instance waits for it.
    const { state } = p.project;
    const deployment = p.pointer('deploy', 'blog');
    await state.addFinalizer(deployment, 'example.com/hold');
    await p.destroy('webapp', 'blog');
    await p.converge();
    expect((await p.get('webapp', 'blog'))?.metadata).toMatchObject({
      phase: 'tearingDown',
      finalizers: ['kro.run/finalizer'],
    });
    await expectNoResource(p, 'svc', 'blog-svc');
    expect((await p.get('deploy', 'blog'))?.metadata.phase).toBe('tearingDown');
    // Let go: the Deployment goes, then the instance is released and destroyed.
    await state.removeFinalizer(deployment, 'example.com/hold');
    await p.advance('2s');
    await p.converge();
    await expectNoResource(p, 'deploy', 'blog');
    await expectNoResource(p, 'webapp', 'blog');
    expect((await p.get('deploy', 'shop'))?.metadata.phase).toBe('running');
  });

  it('fails an absence check on a type or a namespace the project never had, naming the nearest', async () => {
    const p = await project({ manifests: 'fixtures/vm-network' });
    await p.converge();
    await expect(expectNoResource(p, 'NetworkConfigs.example.og', 'web-1')).rejects.toThrow(
      'resource type "NetworkConfigs.example.og" is not registered and no resource of it has existed, so nothing of it could be there (did you mean "NetworkConfigs.example.org"?)',
    );
    await expect(expectNoResource(p, 'vm', 'web-1', { namespace: 'defualt' })).rejects.toThrow(
      'namespace "defualt" has never held a resource and is no type\'s default namespace, so nothing could be there (did you mean "default"?)',
    );
    await expect(assertNoResource(p, 'NetworkConfigs.example.og', 'web-1')).rejects.toThrow(
      'is not registered',
    );
    await p.destroy('vm', 'web-2');
    await p.converge();
    await expectNoResource(p, 'vm', 'web-2');
  });

  it('refuses invalid manifests with every finding at its place', async () => {
    const p = await project({ manifests: 'fixtures/vm-network' });
    const error = await thrown(() =>
      p.apply('metadata: { type: vm, id: bad }\nspec: { cpus: 0, image: 7, host: node-a }\n'),
    );
    if (!(error instanceof ManifestError)) throw error;
    expect(error.findings.map((f) => [f.file, f.line, f.code])).toEqual([
      ['<apply 1>', 2, 'schema-violation'],
      ['<apply 1>', 2, 'schema-violation'],
    ]);
    await p.converge();
    await expectNoResource(p, 'vm', 'bad');
  });

  it("names an edit's findings by the edit, not by a line of the document it made", async () => {
    const p = await project({ manifests: 'fixtures/vm-network' });
    const error = await thrown(() =>
      p.edit<{ cpus: number }>('vm', 'web-1', (draft) => {
        draft.spec.cpus = 0;
      }),
    );
    if (!(error instanceof ManifestError)) throw error;
    expect(error.findings.map((f) => [f.file, f.line, f.col, f.code, f.pointer])).toEqual([
      ['<edit VMs.example.org(default/web-1)>', 0, 0, 'schema-violation', '/spec/cpus'],
    ]);
    expect(error.message).toContain(
      '  <edit VMs.example.org(default/web-1)>: error[schema-violation]: ',
    );
    // The edit counts no apply: the next apply is still the first.
    const next = await thrown(() =>
      p.apply('metadata: { type: vm, id: bad }\nspec: { cpus: 0 }\n'),
    );
    if (!(next instanceof ManifestError)) throw next;
    expect(next.findings[0]?.file).toBe('<apply 1>');
  });

  it('names where the manifests define a type an apply defines again, not the config', async () => {
    // fixtures/kubernetes's config defines no type: its CRDs are manifests.
    const p = await project({ manifests: 'fixtures/kubernetes' });
    const crds = await readFile(path.join(REPO, 'fixtures/kubernetes/crds.yaml'), 'utf8');
    const error = await thrown(() =>
      p.apply(crds.replace('shortNames: [cert, certs]', 'shortNames: [crt]')),
    );
    if (!(error instanceof ManifestError)) throw error;
    const duplicate = error.findings.find((f) => f.code === 'duplicate-definition');
    expect(duplicate?.message).toBe(
      'the type Certificates.cert-manager.io is already defined at fixtures/kubernetes/crds.yaml:5:9',
    );
    expect(duplicate?.related).toMatchObject({
      file: 'fixtures/kubernetes/crds.yaml',
      line: 5,
      col: 9,
    });
  });

  it('takes its RGD applied again as it was (a file, a directory, text) as no change', async () => {
    const p = await project({ manifests: 'fixtures/kro-webapp' });
    await p.converge();
    const rgd = await readFile(path.join(REPO, 'fixtures/kro-webapp/rgd.yaml'), 'utf8');
    await p.apply(rgd);
    await p.apply('fixtures/kro-webapp/rgd.yaml');
    await p.apply(
      'apiVersion: kro.run/v1alpha1\nkind: WebApp\nmetadata: { name: cafe }\nspec: { name: cafe }\n',
    );
    await p.apply('fixtures/kro-webapp');
    expectConverged(await p.converge());
    await expectResource(p, 'Deployment', 'cafe', { spec: { replicas: 1 } });
    // Changed, it is still another definition of the kind.
    const changed = await thrown(() => p.apply(rgd.replace('default=nginx', 'default=httpd')));
    expect(changed.message).toContain('error[duplicate-definition]');
  });

  it("expectResource's diff masks a Secret's values and a sensitive type's spec, as cosi test does", async () => {
    const p = await project({ manifests: 'fixtures/cli/sensitive' });
    await p.apply(
      'apiVersion: v1\nkind: Secret\nmetadata: { name: db }\nstringData: { password: live-pw, user: admin-user }\n',
    );
    await p.converge();
    const secret = await thrown(() =>
      expectResource(p, 'Secrets.core', 'db', {
        stringData: { password: 'wrong-pw', user: 'admin-user' },
      }),
    );
    if (!(secret instanceof CosiAssertionError)) throw secret;
    const diff = secret.resourceDiff ?? '';
    expect(diff).toContain('-  password: "*** (before)"\n+  password: "*** (after)"');
    expect(diff).toContain('   user: "***"');
    const sensitive = await thrown(() =>
      expectResource(p, 'Secrets.example.org', 'db-password', { key: 'not-it' }),
    );
    if (!(sensitive instanceof CosiAssertionError)) throw sensitive;
    expect(sensitive.resourceDiff).toContain('-key: "*** (before)"\n+key: "*** (after)"');
    for (const error of [secret, sensitive]) {
      for (const value of ['live-pw', 'wrong-pw', 'admin-user', 'hunter2', 'not-it']) {
        expect(error.message).not.toContain(value);
      }
    }
  });

  it('a missing resource of a type that has resources in other namespaces names them', async () => {
    const p = await project({ manifests: 'fixtures/kro-webapp' });
    await p.converge();
    await expect(
      expectResource(p, 'Deployment', 'shop', {}, { namespace: 'prod' }),
    ).rejects.toThrow(
      'expected Deployments.apps(prod/shop) to exist, but it does not (none in namespace prod; of that type: default/blog, default/shop)',
    );
    await expect(
      expectResource(p, 'Deployment', 'shop', {}, { namespace: 'default' }),
    ).resolves.toBeDefined();
  });

  it('names the nearest type, alias or kind for a type it does not know', async () => {
    const p = await project({ manifests: 'fixtures/kro-webapp' });
    await p.converge();
    await expect(expectResource(p, 'Deploymnet', 'shop')).rejects.toThrow(
      'resource type "Deploymnet" is not registered (did you mean "deployment"?)',
    );
    await expect(p.list('WebAp')).rejects.toThrow(
      'resource type "WebAp" is not registered (did you mean "webapp"?)',
    );
    // Nothing near: the message as it was.
    await expect(p.get('Zzzzzzzz', 'x')).rejects.toThrow(/is not registered$/);
  });

  it('explains where a resource came from', async () => {
    const p = await project({ manifests: 'fixtures/vm-network' });
    await p.converge();
    const explanation = await p.explain('NetworkConfig', 'web-1');
    expect(explanation.resource?.metadata.owner).toBe('vmnet.NetworkConfigController');
    expect(explanation.lineage?.origin).toMatchObject({
      kind: 'reconcile',
      controller: 'vmnet.NetworkConfigController',
    });
  });
});

describe('assertions', () => {
  it('expectResource throws a diff of the fields that differ, and only those', async () => {
    const p = await project({ manifests: 'fixtures/vm-network' });
    await p.converge();
    const error = await thrown(() =>
      expectResource(p, 'NetworkConfig', 'web-1', { bridge: 'br-alpine' }),
    );
    expect(error).toBeInstanceOf(CosiAssertionError);
    expect(error.message).toContain(
      'expected the spec of NetworkConfigs.example.org(default/web-1) to match',
    );
    expect(error.message).toContain('-bridge: br-alpine\n+bridge: br-debian');
    expect(error.message).not.toContain('hostname');
  });

  it('expectResource names the ids there are when the resource is missing', async () => {
    const p = await project({ manifests: 'fixtures/vm-network' });
    await p.converge();
    const error = await thrown(() => expectResource(p, 'NetworkConfig', 'web-9'));
    expect(error.message).toContain('existing ids: db-1, web-1, web-2');
  });

  it('expectResource suggests the type a misspelt full type name was meant to be', async () => {
    const p = await project({ manifests: 'fixtures/vm-network' });
    await p.converge();
    const error = await thrown(() =>
      expectResource(p, 'NetworkConfigs.example.og', 'web-1', { bridge: 'br-debian' }),
    );
    expect(error).toBeInstanceOf(CosiAssertionError);
    expect(error.message).toContain(
      'no resource of that type exists, and no definition names it: did you mean "NetworkConfigs.example.org"?',
    );
  });

  it('expectNoResource names the owner of the resource that is there', async () => {
    const p = await project({ manifests: 'fixtures/vm-network' });
    await p.converge();
    const error = await thrown(() => expectNoResource(p, 'NetworkConfig', 'web-1'));
    expect(error.message).toContain('owner vmnet.NetworkConfigController');
  });

  it('expectNoResource and assertNoResource say why a finalizer holds the resource', async () => {
    const releaser = createQTransformController({
      name: 'ReleaseController',
      input: Counter,
      output: Echo,
      mapMetadata: (counter) => Echo.create(counter.metadata.id),
      unmapMetadata: (echo) => Counter.pointer(echo.metadata.id),
      transform: (_ctx, counter, echo) => {
        echo.spec.value = counter.spec.value;
      },
      finalizerRemoval: async (_ctx, counter) => {
        throw new Error(`the balancer refused to let ${counter.metadata.id} go`);
      },
    });
    const p = await project({
      config: { definitions: [Counter, Echo], controllers: [releaser] },
      manifests: counters(1),
    });
    await p.converge();
    await p.destroy('counter', 'c1');
    await p.converge();
    for (const assertion of [
      () => expectNoResource(p, 'counter', 'c1'),
      () => assertNoResource(p, 'counter', 'c1', { timeout: '1m' }),
    ]) {
      const error = await thrown(assertion);
      expect(error.message).toContain('phase tearingDown, finalizers ReleaseController)');
      expect(error.message).toMatch(
        /; ReleaseController failed on it \(\d+ attempts\): the balancer refused to let c1 go/,
      );
    }
  });

  it("a reconcile that never settles fails expectConverged naming it, within the runner's test timeout", async () => {
    const p = await project({
      config: { definitions: [Counter, Echo], controllers: [hanging] },
      manifests: counters(1),
    });
    // vitest's own default timeout (5 s) is this test's: the default stall bound is within it.
    const error = await thrown(async () => expectConverged(await p.converge()));
    expect(error.message).toContain('HangingController');
    expect(error.message).toContain('Counters.test.cosi.dev(default/c1)');
  });

  it('advance and the waits on a reconcile that never settles end after stallTimeout, naming it', async () => {
    const p = await project({
      config: { definitions: [Counter, Echo], controllers: [hanging] },
      manifests: counters(1),
      stallTimeout: 200,
    });
    // They waited on it for ever: node --test has no test timeout, so the run hung.
    const started = performance.now();
    await p.advance('30s');
    expect(p.lastReport?.reason).toBe('max-time');
    expect(() => expectConverged(p)).toThrow(
      'HangingController was still running (on Counters.test.cosi.dev(default/c1)) after',
    );
    const error = await thrown(() => assertResource(p, Echo, 'c1', { value: 1 }));
    expect(error.message).toMatch(/^expected Echoes\.test\.cosi\.dev\(default\/c1\)/);
    expect(error.message).toContain(
      'the controllers had not settled at the end of the last advance or wait (max-time): HangingController was still running (on Counters.test.cosi.dev(default/c1))',
    );
    expect(await p.step()).toBe(false);
    // Each span waited the bound once or so, not for ever.
    expect(performance.now() - started).toBeLessThan(4_000);
  });

  it("a reconcile that never settles is placed where the project's code defines its controller, as a throw is", async () => {
    const p = await project({ manifests: 'fixtures/cli/hanging-transform', stallTimeout: 200 });
    // It named the controller alone: `HangingTransform was still running after 0.2s ...`.
    // The line of its factory call (the column is the loader's compiled line's, as a throw's is).
    const place = /\(defined at fixtures\/cli\/hanging-transform\/cosi\.config\.ts:5:\d+\)/;
    expect(() => expectConverged(p)).toThrow('never ran');
    const error = await thrown(async () => expectConverged(await p.converge()));
    expect(error.message).toMatch(/with nothing else to do \(defined at /);
    expect(error.message).toMatch(place);
    await p.advance('1s');
    expect(() => expectConverged(p)).toThrow(place);
    const [finding] = await expectFinding(p, { code: 'controller-failed' });
    expect(finding?.message).toMatch(place);
    const once = await p.reconcileOnce('HangingTransform');
    expect(once.location).toMatchObject({
      file: 'fixtures/cli/hanging-transform/cosi.config.ts',
      line: 5,
    });
  });

  it('a reconcile that never settles is named when a time bound ends the run first (another controller requeues)', async () => {
    const p = await project({
      config: { ...pollerConfig, controllers: [...(pollerConfig.controllers ?? []), hanging] },
      manifests: counters(1),
      // The poller's 10 s requeues reach this bound long before the wall-time stall bound.
      timeout: 25_000,
    });
    const report = await p.converge();
    expect(report.reason).toBe('max-time');
    const error = await thrown(async () => expectConverged(report));
    expect(error.message).toContain(
      '  HangingController was still reconciling Counters.test.cosi.dev(default/c1) when the time bound ended the run',
    );
    expect(report.controllers.find((c) => c.name === POLLER)?.runningAtEnd).toBeUndefined();
  });

  it('expectConverged and expectFinding read what cosi check would report', async () => {
    const p = await project({ manifests: 'fixtures/cli/failing-controller' });
    const report = await p.converge();
    const error = await thrown(async () => expectConverged(report));
    expect(error.message).toContain('could not reconcile Counters.test.cosi.dev(default/start)');
    // Where it threw, as cosi check ends a reconcile-failed finding with it.
    expect(error.message).toMatch(
      /failed: .*one is a lonely number \(at fixtures\/cli\/failing-controller\/cosi\.config\.ts:15:\d+\)$/m,
    );
    const [finding] = await expectFinding(p, { code: 'reconcile-failed', message: 'lonely' });
    expect(finding?.file).toBe('fixtures/cli/failing-controller/counters.yaml');
    const missing = await thrown(() => expectFinding(p, { code: 'not-converged' }));
    expect(missing.message).toContain('error[reconcile-failed]');
  });
});

describe('other kinds of projects', () => {
  it('a misspelt field: the diff shows the fields there are, not an empty spec', async () => {
    const p = await project({ manifests: 'fixtures/vm-network' });
    await p.converge();
    const error = await thrown(() => expectResource(p, 'NetworkConfig', 'web-1', { bridg: 'x' }));
    expect(error.message).toContain('it has no "bridg"');
    expect(error.message).toContain('+bridge: br-debian');
    expect(error.message).not.toContain('+{}');
  });

  it('a config path that is not there is named as the option it was given in, not a flag', async () => {
    const error = await thrown(() => project({ config: 'cosi.confg.ts', manifests: counters(1) }));
    expect(error.message).toBe('config: cosi.confg.ts: no such file or directory');
  });

  it("manifests as text, with no config given, run with the working directory's project config", async () => {
    // As `cosi apply -f -` inside a project: the config is looked for from the working directory.
    const cwd = path.join(REPO, 'fixtures/vm-network');
    const p = await project({
      cwd,
      manifests: 'metadata: { type: vm, id: solo }\nspec: { cpus: 1, image: arch, host: node-a }\n',
    });
    expect(p.config?.file).toBe(path.join(cwd, 'cosi.config.ts'));
    expect((await p.get('vm', 'solo'))?.metadata.type).toBe('VMs.example.org');
  });

  it('a config object and manifests as objects', async () => {
    const p = await project({ config: echoConfig, manifests: counters(3, 4) });
    expectConverged(await p.converge());
    await expectResource(p, 'echo', 'c2', { value: 4 });
    expect((await p.list('echo')).map((r) => r.metadata.id)).toEqual(['c1', 'c2']);
  });

  it('a kro ResourceGraphDefinition, with no TypeScript at all', async () => {
    const p = await project({ manifests: 'fixtures/kro-webapp' });
    expect(p.config).toBeUndefined();
    expectConverged(await p.converge());
    await expectResource(p, 'Deployment', 'shop', { spec: { replicas: 1 } });
    await expectResource(p, 'Ingress', 'shop');
    await expectNoResource(p, 'Ingress', 'blog');
  });

  it('refuses an RGD it did not start with: its controller cannot be added, and its instances would never render', async () => {
    const p = await project({ manifests: 'fixtures/vm-network' });
    const rgd = await readFile(path.join(REPO, 'fixtures/kro-webapp/rgd.yaml'), 'utf8');
    const error = await thrown(() => p.apply(rgd));
    expect(error.message).toContain(
      'apply: the ResourceGraphDefinition webapp.kro.run is not among the manifests the project started with',
    );
    expect((error as { code?: string }).code).toBe('declared-controller-changed');
    // Nothing of it was taken: its kind is still unknown.
    await expect(
      p.apply(
        'apiVersion: kro.run/v1alpha1\nkind: WebApp\nmetadata: { name: x }\nspec: { name: x }\n',
      ),
    ).rejects.toThrow(ManifestError);
  });

  it('the kubernetes fixture: CRDs, built-in kinds and a builder controller', async () => {
    const p = await project({ manifests: 'fixtures/kubernetes' });
    expectConverged(await p.converge());
    await expectResource(p, 'deploy', 'shop', { spec: { replicas: 3 } });
    await p.destroy('webapp', 'shop');
    await p.converge();
    await expectNoResource(p, 'deploy', 'shop');
  });
});

describe('advance', () => {
  it('fires only the timers that fall due in the time given', async () => {
    const p = await project({ config: pollerConfig, manifests: counters(1) });
    await p.advance(0);
    await expectResource(p, 'visits', 'c1', { count: 1 });
    await p.advance('25s');
    // Requeued at 10 s and 20 s; the one at 30 s is still pending.
    await expectResource(p, 'visits', 'c1', { count: 3 });
    expect(p.now() - Date.UTC(2025, 0, 1)).toBe(25_000);
    await p.advance('5s');
    await expectResource(p, 'visits', 'c1', { count: 4 });
    expect(p.project.runtime.status(POLLER)?.condition).not.toBe('failed');
  });

  it('goes on after a convergence run its time bound ended: the requeues it left due still fire', async () => {
    const p = await project({ config: pollerConfig, manifests: counters(1), timeout: 25_000 });
    // Requeued every 10 s forever: the run ends at its bound, with the next requeue due.
    const report = await p.converge();
    expect(report.reason).toBe('max-time');
    await expectResource(p, 'visits', 'c1', { count: 3 });
    await p.advance('20s');
    await expectResource(p, 'visits', 'c1', { count: 5 });
    // A wait drives them too, one timer after another, up to its timeout.
    await assertResource(p, 'visits', 'c1', { count: 8 }, { timeout: '30s' });
  });

  it('a wait that ends before its timeout says whether a timer is left, and when it is due', async () => {
    const p = await project({ config: pollerConfig, manifests: counters(1) });
    await p.advance(0);
    // The poller's next requeue is at 10 s: past this wait's 5 s.
    await expect(
      assertResource(p, 'visits', 'c1', { count: 99 }, { timeout: 5_000 }),
    ).rejects.toThrow(
      'to match (waited 0ms of simulated time, the next timer is due 5s after the timeout)',
    );
    const done = await project({ config: echoConfig, manifests: counters(1) });
    await done.converge();
    await expect(
      assertResource(done, 'echo', 'c1', { value: 99 }, { timeout: 5_000 }),
    ).rejects.toThrow('to match (waited 0ms of simulated time, nothing left to happen)');
  });

  it('refuses a duration it cannot read', async () => {
    const p = await project({ config: pollerConfig, manifests: counters(1) });
    await expect(p.advance('soon')).rejects.toThrow('advance: invalid duration "soon"');
    await expect(p.advance(Number.NaN)).rejects.toThrow('advance: invalid duration NaN (');
    await expect(p.advance(Number.POSITIVE_INFINITY)).rejects.toThrow(
      'advance: invalid duration Infinity (',
    );
  });
});
