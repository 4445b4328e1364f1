import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ForeignStateError } from '../../src/app/foreign-state.js';
import { serveProject, type ServedProject } from '../../src/app/serve-project.js';
import {
  describeFingerprintDifference,
  type ProjectFingerprint,
} from '../../src/state-etcd/project-fingerprint.js';
import { newResource } from '../../src/engine/resource/resource.js';
import { createInMemoryState } from '../../src/engine/state/in-memory-state.js';

/** Controllers that only wait: which of them got registered is what these tests look at. */
const CONFIG = `
const idle = (name, extra = {}) => ({
  name,
  inputs: [],
  outputs: [],
  ...extra,
  run: (rt, signal) => new Promise((resolve) => signal.addEventListener('abort', resolve)),
});
export default {
  controllers: [idle('Everywhere', { needLeaderElection: false }), idle('LeaderOnly')],
};
`;

const VMS = (cpus: number, id = 'web-1'): string => `
metadata: { type: ResourceDefinitions.meta.cosi.dev, id: vms.example.org }
spec: { type: VMs.example.org, displayType: VM, defaultNamespace: default }
---
metadata: { type: vm, id: ${id} }
spec: { cpus: ${cpus} }
`;

describe('serveProject', () => {
  let dir: string;
  let served: ServedProject | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-serve-'));
    await writeFile(path.join(dir, 'cosi.config.mjs'), CONFIG);
    await writeFile(path.join(dir, 'vms.yaml'), VMS(2));
  });
  afterEach(async () => {
    await served?.stop();
    served = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  const serve = async (
    elect?: (signal: AbortSignal, fingerprint: ProjectFingerprint) => Promise<void>,
    root = dir,
  ): Promise<ServedProject> => {
    const result = await serveProject({
      files: [root],
      cwd: root,
      state: createInMemoryState(),
      ...(elect ? { elect } : {}),
    });
    if (!('project' in result)) throw new Error(JSON.stringify(result.findings));
    served = result;
    return result;
  };

  it('runs controllers that opt out of leader election before it is elected, the others once it is', async () => {
    let elected!: () => void;
    const election = new Promise<void>((resolve) => (elected = resolve));
    const s = await serve(() => election);
    expect(s.project.runtime.controllerNames()).toEqual(['Everywhere']);
    elected();
    await s.elected;
    expect(s.project.runtime.controllerNames()).toEqual(['Everywhere', 'LeaderOnly']);
  });

  it("fingerprints the controllers the config's setup registers, before it is elected", async () => {
    const withSetup = (name: string): string =>
      CONFIG.replace(
        'export default {',
        `export default {\n  setup: (rt) => rt.register(idle(${JSON.stringify(name)})),`,
      );
    // Each config in a directory of its own: a module is imported once per path.
    const fingerprintOf = async (name: string, config: string) => {
      const own = path.join(dir, name);
      await mkdir(own);
      await writeFile(path.join(own, 'cosi.config.mjs'), config);
      await writeFile(path.join(own, 'vms.yaml'), VMS(2));
      let seen: ProjectFingerprint | undefined;
      const s = await serve((signal, fingerprint) => {
        seen = fingerprint;
        return new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error('closed'))),
        );
      }, own);
      // setup ran on a scratch runtime only: the served one has no leader part yet.
      expect(s.project.runtime.controllerNames()).toEqual(['Everywhere']);
      await s.stop();
      await expect(s.elected).rejects.toThrow('closed');
      served = undefined;
      if (seen === undefined) throw new Error('the election was never asked for');
      return seen;
    };
    const a = await fingerprintOf('a', withSetup('FromSetup'));
    expect(a.controllers).toEqual(['Everywhere', 'FromSetup', 'LeaderOnly']);
    const b = await fingerprintOf('b', withSetup('Renamed'));
    expect(b.controllers).toEqual(['Everywhere', 'LeaderOnly', 'Renamed']);
    expect(b.digest).not.toBe(a.digest);
    expect(describeFingerprintDifference(a, b)).toBe('controllers +Renamed -FromSetup');
  });

  it('never starts the leader group in a process that is not elected, and stops cleanly', async () => {
    const s = await serve((signal) => {
      return new Promise((_, reject) =>
        signal.addEventListener('abort', () => reject(new Error('closed'))),
      );
    });
    await s.stop();
    await expect(s.elected).rejects.toThrow('closed');
    expect(s.project.runtime.controllerNames()).toEqual(['Everywhere']);
    served = undefined;
  });

  it('leads at once without an election, and applies the manifests again on request', async () => {
    const s = await serve();
    await s.elected;
    expect(s.applied).toEqual({ resources: 1, created: 1, updated: 0, removed: 0 });
    const read = async (): Promise<unknown> =>
      (await s.project.state.get({ namespace: 'default', type: 'VMs.example.org', id: 'web-1' }))
        .spec;
    expect(await read()).toEqual({ cpus: 2 });

    await writeFile(path.join(dir, 'vms.yaml'), VMS(4));
    expect(await s.reapply()).toEqual({
      applied: { resources: 1, created: 0, updated: 1, removed: 0 },
      skipped: [],
    });
    expect(await read()).toEqual({ cpus: 4 });

    await writeFile(path.join(dir, 'vms.yaml'), 'metadata: { type: vm }\n');
    const broken = await s.reapply();
    expect('findings' in broken && broken.findings.length).toBeGreaterThan(0);
    // The last good manifests keep running.
    expect(await read()).toEqual({ cpus: 4 });

    await writeFile(path.join(dir, 'vms.yaml'), VMS(1, 'web-2'));
    expect(await s.reapply()).toEqual({
      applied: { resources: 1, created: 1, updated: 0, removed: 1 },
      skipped: [],
    });
    const list = await s.project.state.list({ namespace: 'default', type: 'VMs.example.org' });
    expect(list.map((r) => r.metadata.id)).toEqual(['web-2']);
  });

  it('applies nothing of manifests whose definitions changed, which only a new start loads', async () => {
    const s = await serve();
    await s.elected;
    await writeFile(path.join(dir, 'vms.yaml'), VMS(4));
    expect(await s.reapply()).not.toHaveProperty('definitionsChanged');
    await writeFile(
      path.join(dir, 'vms.yaml'),
      VMS(5).replace('displayType: VM,', 'displayType: VirtualMachine,'),
    );
    expect(await s.reapply()).toEqual({ definitionsChanged: true });
    // The resources keep what the started definitions applied: cpus 4, not 5.
    const stored = await s.project.state.get({
      namespace: 'default',
      type: 'VMs.example.org',
      id: 'web-1',
    });
    expect(stored.spec).toEqual({ cpus: 4 });
    // Said at each apply until a new start: the running types are still the started ones.
    expect(await s.reapply()).toEqual({ definitionsChanged: true });
  });

  it('opens a state that already holds the project without duplicating it', async () => {
    const state = createInMemoryState();
    const first = await serveProject({ files: [dir], cwd: dir, state });
    if (!('project' in first)) throw new Error('refused');
    await first.stop();
    const second = await serveProject({ files: [dir], cwd: dir, state });
    if (!('project' in second)) throw new Error('refused');
    served = second;
    expect(second.applied).toEqual({ resources: 1, created: 0, updated: 0, removed: 0 });
    expect(await state.list({ namespace: 'default', type: 'VMs.example.org' })).toHaveLength(1);
  });

  it('destroys the manifests an earlier process removed and left tearing down, once their finalizers are gone', async () => {
    // A run removed web-2 from its manifests and stopped while a controller held it: the state
    // keeps it tearing down, and the applied set (written after that apply) no longer names it.
    const state = createInMemoryState();
    const gone = { namespace: 'default', type: 'VMs.example.org', id: 'web-2' };
    const first = await serveProject({ files: [dir], cwd: dir, state });
    if (!('project' in first)) throw new Error('refused');
    await state.create(newResource(gone, { cpus: 1 }));
    await state.addFinalizer(gone, 'example.org/held');
    await state.teardown(gone);
    await first.stop();
    let applied: readonly { namespace: string; type: string; id: string }[] = [
      { namespace: 'default', type: 'VMs.example.org', id: 'web-1' },
    ];
    const second = await serveProject({
      files: [dir],
      cwd: dir,
      state,
      releaseInterval: 10,
      appliedSet: {
        readAppliedSet: () => Promise.resolve([...applied]),
        writeAppliedSet: (pointers) => {
          applied = [...pointers];
          return Promise.resolve();
        },
      },
    });
    if (!('project' in second)) throw new Error('refused');
    served = second;
    await second.elected;
    // Its controller lets go of it: the new leader destroys it, as the API server would.
    await state.removeFinalizer(gone, 'example.org/held');
    await vi.waitFor(
      async () => {
        const left = await state.list({ namespace: 'default', type: 'VMs.example.org' });
        expect(left.map((r) => r.metadata.id)).toEqual(['web-1']);
      },
      { timeout: 5_000, interval: 20 },
    );
  });

  it('destroys what a controller owns but no longer declares as an output, once its finalizers are gone', async () => {
    // An earlier version of Writer wrote VMs (as an RGD rendered an Ingress before an edit
    // dropped it); today's declares only Tags, so it can never reach them again.
    await writeFile(
      path.join(dir, 'cosi.config.mjs'),
      `export default { controllers: [{
        name: 'Writer',
        inputs: [],
        outputs: [{ type: 'Tags.example.org', kind: 'exclusive' }],
        run: (rt, signal) => new Promise((resolve) => signal.addEventListener('abort', resolve)),
      }] };\n`,
    );
    await writeFile(
      path.join(dir, 'tags.yaml'),
      'metadata: { type: ResourceDefinitions.meta.cosi.dev, id: tags.example.org }\n' +
        'spec: { type: Tags.example.org, displayType: Tag, defaultNamespace: default }\n',
    );
    const state = createInMemoryState();
    const vm = (id: string) => ({ namespace: 'default', type: 'VMs.example.org', id });
    await state.create(newResource(vm('old-free'), { cpus: 1 }), { owner: 'Writer' });
    await state.create(newResource(vm('old-held'), { cpus: 1 }), { owner: 'Writer' });
    await state.addFinalizer(vm('old-held'), 'example.org/held');
    // Owned by a controller this project does not register: not this process's to judge.
    await state.create(newResource(vm('elsewhere'), { cpus: 1 }), { owner: 'Elsewhere' });
    const logs: string[] = [];
    const result = await serveProject({
      files: [dir],
      cwd: dir,
      state,
      onLog: (record) =>
        logs.push(`${record.level} ${record.message} ${JSON.stringify(record.fields)}`),
    });
    if (!('project' in result)) throw new Error(JSON.stringify(result.findings));
    served = result;
    await result.elected;
    const ids = async (): Promise<string[]> =>
      (await state.list({ namespace: 'default', type: 'VMs.example.org' })).map(
        (r) => r.metadata.id,
      );
    await vi.waitFor(async () => expect(await ids()).toEqual(['elsewhere', 'old-held', 'web-1']), {
      timeout: 5_000,
      interval: 20,
    });
    expect((await state.get(vm('old-held'))).metadata.phase).toBe('tearingDown');
    await state.removeFinalizer(vm('old-held'), 'example.org/held');
    await vi.waitFor(async () => expect(await ids()).toEqual(['elsewhere', 'web-1']), {
      timeout: 5_000,
      interval: 20,
    });
    expect(logs).toContain(
      'warn destroying a resource its controller no longer declares as an output ' +
        JSON.stringify({
          controller: 'Writer',
          resource: 'VMs.example.org(default/old-free)',
          code: 'undeclared-output',
        }),
    );
  });

  it('refuses manifests with errors, starting nothing', async () => {
    await writeFile(path.join(dir, 'vms.yaml'), 'metadata: { type: vm }\n');
    const result = await serveProject({ files: [dir], cwd: dir, state: createInMemoryState() });
    expect('findings' in result && result.findings.map((f) => f.file)).toContain(
      path.join(dir, 'vms.yaml'),
    );
  });

  it("refuses a state holding another project's types, writing nothing to it", async () => {
    const state = createInMemoryState();
    await state.create(
      newResource({ namespace: 'default', type: 'Buckets.s3.example.org', id: 'b' }, {}),
    );
    const refused = serveProject({ files: [dir], cwd: dir, state, stateName: 'etcd://h:1/x' });
    await expect(refused).rejects.toThrow(ForeignStateError);
    await expect(refused).rejects.toMatchObject({
      code: 'foreign-state',
      types: ['Buckets.s3.example.org'],
      message: expect.stringMatching(
        /^etcd:\/\/h:1\/x holds resources of types this project does not define \(Buckets\.s3\.example\.org\)/,
      ) as unknown,
    });
    expect(await state.list({ namespace: 'default', type: 'VMs.example.org' })).toEqual([]);
  });
});
