import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CosiAssertionError,
  createTestProject,
  expectConverged,
  expectGolden,
  UPDATE_GOLDEN_ENV,
  type TestProject,
} from '../../src/testing/index.js';
import { cli, REPO } from '../cli/run-cli.js';
import {
  controllerManagedBy,
  defineConfig,
  defineResource,
  findById,
  type Runtime,
} from '../../src/index.js';

const open: TestProject[] = [];
const dirs: string[] = [];
afterEach(async () => {
  delete process.env.COSI_UPDATE_GOLDEN;
  await Promise.all(open.splice(0).map((p) => p.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function vmNetwork(): Promise<TestProject> {
  const p = await createTestProject({ cwd: REPO, manifests: 'fixtures/vm-network' });
  open.push(p);
  return p;
}

async function goldenDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-golden-'));
  dirs.push(dir);
  return dir;
}

/** What `run` throws (it must throw). */
async function thrown(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected it to throw');
}

describe('expectGolden', () => {
  it('records the state as cosi check --expect --update does, and cosi check passes on it', async () => {
    const dir = await goldenDir();
    const p = await vmNetwork();
    expectConverged(await p.converge());
    await expectGolden(p, dir, { update: true });
    expect((await readdir(dir)).sort()).toContain('NetworkConfigs.example.org.yaml');
    await expectGolden(p, dir);
    // One golden tree for the test and for the CI gate.
    const check = await cli(['check', 'fixtures/vm-network', '--expect', dir]);
    expect(check.stdout).toMatch(/expectations: \d+ passed, 0 failed/);
    expect(check.code).toBe(0);
  }, 60_000);

  it('fails on a changed state with each difference at its golden line, a diff, and how to record', async () => {
    const dir = await goldenDir();
    const p = await vmNetwork();
    await p.converge();
    await expectGolden(p, dir, { update: true });
    await p.edit<{ image: string }>('vm', 'web-1', (draft) => {
      draft.spec.image = 'alpine';
    });
    await p.apply(
      'metadata: { type: vm, id: web-9 }\nspec: { cpus: 1, image: arch, host: node-a }\n',
    );
    await p.converge();
    const error = await thrown(() => expectGolden(p, dir));
    expect(error).toBeInstanceOf(CosiAssertionError);
    const file = path.join(dir, 'NetworkConfigs.example.org.yaml');
    const golden = (await readFile(file, 'utf8')).split('\n');
    // At the field that differs: web-1's bridge.
    const web1 = golden.indexOf('  id: web-1');
    const bridge = golden.findIndex((l, i) => i > web1 && l.startsWith('  bridge: ')) + 1;
    expect(error.message).toMatch(
      new RegExp(
        `^expected the state to match the golden tree ${dir} \\(\\d+ resources differ\\)\n`,
      ),
    );
    expect(error.message).toContain(`${file}:${bridge}:11: error[unexpected-state]:`);
    expect(error.message).toContain(
      'error[unexpected-state]: NetworkConfigs.example.org(default/web-1) differs from the expectation',
    );
    expect(error.message).toContain('    -  bridge: br-debian\n    +  bridge: br-alpine');
    expect(error.message).toContain(
      'error[unexpected-resource]: the converged state has NetworkConfigs.example.org(default/web-9), which the expectations do not list',
    );
    expect(error.message).toContain(
      `run the test with ${UPDATE_GOLDEN_ENV}=1 (or { update: true })`,
    );
    // The stack points at the test, not at cosi.
    expect(error.stack?.split('\n')[1] ?? '').not.toContain('/src/testing/');
  }, 60_000);

  it(`records with ${UPDATE_GOLDEN_ENV}=1 in the environment, and not with 0`, async () => {
    const dir = await goldenDir();
    const p = await vmNetwork();
    await p.converge();
    process.env[UPDATE_GOLDEN_ENV] = '0';
    expect((await thrown(() => expectGolden(p, dir))).message).toContain(
      `expected the state to match the golden tree ${dir}`,
    );
    expect(await readdir(dir)).toEqual([]);
    process.env[UPDATE_GOLDEN_ENV] = '1';
    await expectGolden(p, dir);
    expect(await readdir(dir)).toContain('Placements.example.org.yaml');
    delete process.env.COSI_UPDATE_GOLDEN;
    await expectGolden(p, dir);
  }, 60_000);

  it('does not record a state that did not settle', async () => {
    const dir = await goldenDir();
    const p = await vmNetwork();
    p.faults.failWrites({
      when: (w) => w.owner === 'vmnet.NetworkConfigController',
      times: Infinity,
    });
    expect((await p.converge()).converged).toBe(false);
    const error = await thrown(() => expectGolden(p, dir, { update: true }));
    expect(error.message).toMatch(
      new RegExp(`^not recording ${dir}: the last convergence did not settle`),
    );
    expect(await readdir(dir)).toEqual([]);
  }, 60_000);

  describe('a sensitive type a controller writes', () => {
    const Source = defineResource<{ value: string }>({
      type: 'Sources.test.cosi.dev',
      defaultSpec: () => ({ value: '' }),
    });
    const Credential = defineResource<{ user: string; password: string }>({
      type: 'Credentials.test.cosi.dev',
      sensitivity: 'sensitive',
      defaultSpec: () => ({ user: '', password: '' }),
    });
    const credentials = (suffix: string) =>
      defineConfig({
        definitions: [Source, Credential],
        setup: (runtime: Runtime) =>
          controllerManagedBy(runtime)
            .named('CredentialController')
            .for(Source)
            .owns(Credential)
            .complete(async ({ client }, request) => {
              const source = await findById(client, Source, request.id, request.namespace);
              if (!source) return;
              await client.modify(Credential.create(request.id), (c) => {
                c.spec.user = request.id;
                c.spec.password = `pw-${source.spec.value}${suffix}`;
              });
            }),
      });
    const start = async (suffix: string) => {
      const p = await createTestProject({
        cwd: REPO,
        config: credentials(suffix),
        manifests: 'metadata: { type: Sources.test.cosi.dev, id: db }\nspec: { value: one }\n',
      });
      open.push(p);
      expectConverged(await p.converge());
      return p;
    };

    it('fails when the password the controller writes changes, without the password in the golden', async () => {
      const dir = await goldenDir();
      await expectGolden(await start(''), dir, { update: true, key: 'k' });
      const text = await readFile(path.join(dir, 'Credentials.test.cosi.dev.yaml'), 'utf8');
      expect(text).toMatch(/ {2}password: hmac-sha256:[0-9a-f]{32}\n/);
      expect(text).not.toContain('pw-one');
      await expectGolden(await start(''), dir, { key: 'k' });
      // A bug in the controller: the password differs, and the golden gate says so.
      const buggy = await start('-bug');
      const failed = await thrown(() => expectGolden(buggy, dir, { key: 'k' }));
      expect(failed).toBeInstanceOf(CosiAssertionError);
      expect(failed.message).toContain(
        'Credentials.test.cosi.dev(default/db) differs from the expectation (sensitive, compared by fingerprints keyed with COSI_GOLDEN_KEY: password changed',
      );
      expect(failed.message).toContain('-  password: "*** (before)"');
      expect(failed.message).not.toContain('pw-one');
    }, 60_000);

    it('fails when it cannot compare the values: no key to record or compare them with', async () => {
      const dir = await goldenDir();
      const p = await start('');
      await expectGolden(p, dir, { update: true });
      const error = await thrown(() => expectGolden(p, dir));
      expect(error.message).toContain(
        'warning[sensitive-not-compared]: Credentials.test.cosi.dev(default/db): its sensitive values (user, password) were not compared',
      );
      expect(error.message).toContain('(1 resource differs or could not be compared)');
      expect(error.message).toContain(
        'compared by fingerprints keyed with COSI_GOLDEN_KEY (or { key })',
      );
    }, 60_000);
  });
});
