import { afterEach, describe, expect, it } from 'vitest';
import {
  and,
  channelSource,
  controllerManagedBy,
  createManager,
  isBuilderError,
  not,
  or,
  labelsChanged,
  setControllerReference,
  specChanged,
  terminalError,
  type ReconcileFunc,
} from '../../../src/index.js';
import { createHarness, Disk, VM, type Harness } from './fixtures.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

describe('the public barrel', () => {
  it('exports the builder, its handlers, predicates, sources and owner references', async () => {
    h = createHarness();
    const ensureDisk: ReconcileFunc = async ({ client }, request) => {
      const vm = await client.find(VM.pointer(request.id, request.namespace));
      if (!vm) return;
      await client.modify(Disk.create(`${request.id}-root`), (d) => setControllerReference(vm, d));
    };
    const manager = createManager(h.runtime);
    await controllerManagedBy(manager)
      .for(VM)
      .owns(Disk)
      .withEventFilter(and(or(specChanged, labelsChanged)))
      .watchesRawSource(channelSource())
      .complete(ensureDisk);
    await h.state.create(VM.create('web'));
    await manager.start();
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect((await h.state.get(Disk.pointer('web-root'))).metadata.owner).toBe('vm');
    expect(terminalError('x').code).toBe('terminal');
    expect(not(specChanged).create({ object: VM.create('x') })).toBe(false);
    const failed = await controllerManagedBy(h.runtime)
      .for(VM)
      .complete(ensureDisk)
      .catch((e: unknown) => e);
    expect(isBuilderError(failed)).toBe(true);
  });
});
