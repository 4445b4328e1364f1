import { afterEach, describe, expect, it } from 'vitest';
import { RegistrationError, type Controller } from '../../../src/index.js';
import { controllerManagedBy } from '../../../src/engine/builder/builder.js';
import type { BuilderError } from '../../../src/engine/builder/errors.js';
import { createManager, type Runnable } from '../../../src/engine/builder/manager.js';
import { createHarness, Disk, Host, recorder, VM, type Harness } from './fixtures.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

/** A runnable that notes when it starts. */
const noting = (order: string[], name: string, needLeaderElection?: boolean): Runnable => ({
  ...(needLeaderElection === undefined ? {} : { needLeaderElection }),
  start: () => {
    order.push(name);
  },
});

/** An election decided by the test. */
function pendingElection(): { elect: () => Promise<void>; win: () => void } {
  let win: () => void = () => undefined;
  const won = new Promise<void>((resolve) => (win = resolve));
  return { elect: () => won, win: () => win() };
}

describe('a manager', () => {
  it('puts controllers in the leader-election group unless they opt out', async () => {
    h = createHarness();
    const manager = createManager(h.runtime);
    await controllerManagedBy(manager)
      .for(VM)
      .complete(() => undefined);
    await controllerManagedBy(manager)
      .for(Disk)
      .withOptions({ needLeaderElection: false })
      .complete(() => undefined);
    expect(manager.groupOf('vm')).toBe('leaderElection');
    expect(manager.groupOf('disk')).toBe('others');
  });

  it('registers nothing with the runtime before it starts', async () => {
    h = createHarness();
    const manager = createManager(h.runtime);
    await controllerManagedBy(manager)
      .for(VM)
      .complete(() => undefined);
    expect(h.runtime.controllerNames()).toEqual([]);
  });

  it('starts both groups on a single process, which leads at once, and their controllers reconcile', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    await h.state.create(Disk.create('root'));
    const manager = createManager(h.runtime);
    const vms = recorder(h);
    const disks = recorder(h);
    await controllerManagedBy(manager).for(VM).complete(vms);
    await controllerManagedBy(manager)
      .for(Disk)
      .withOptions({ needLeaderElection: false })
      .complete(disks);
    await manager.start();
    await h.runtime.converge();
    expect(h.runtime.controllerNames()).toEqual(['disk', 'vm']);
    expect([vms.ids(), disks.ids()]).toEqual([['web'], ['root']]);
  });

  it('starts the state first, then the others group, then the leader-election group', async () => {
    h = createHarness();
    const order: string[] = [];
    const startRuntime = h.runtime.start.bind(h.runtime);
    h.runtime.start = () => {
      order.push('state');
      return startRuntime();
    };
    const manager = createManager(h.runtime);
    await manager.add(noting(order, 'leader'));
    await manager.add(noting(order, 'other', false));
    await manager.start();
    expect(order).toEqual(['state', 'other', 'leader']);
  });

  it('holds the leader-election group until this process is elected', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    await h.state.create(Disk.create('root'));
    const election = pendingElection();
    const manager = createManager(h.runtime, { elect: election.elect });
    const vms = recorder(h);
    const disks = recorder(h);
    await controllerManagedBy(manager).for(VM).complete(vms);
    await controllerManagedBy(manager)
      .for(Disk)
      .withOptions({ needLeaderElection: false })
      .complete(disks);
    await manager.start();
    await h.runtime.converge();
    expect(h.runtime.controllerNames()).toEqual(['disk']);
    expect(vms.calls).toEqual([]);
    election.win();
    await manager.elected;
    await h.runtime.converge();
    expect(h.runtime.controllerNames()).toEqual(['disk', 'vm']);
    expect(vms.ids()).toEqual(['web']);
  });

  it('starts a controller added after its group started at once', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const manager = createManager(h.runtime);
    await manager.start();
    const vms = recorder(h);
    await controllerManagedBy(manager).for(VM).complete(vms);
    expect(h.runtime.controllerNames()).toEqual(['vm']);
    await h.runtime.converge();
    expect(vms.ids()).toEqual(['web']);
  });

  it('refuses a second controller of a name already added with duplicate-name', async () => {
    h = createHarness();
    const manager = createManager(h.runtime);
    await controllerManagedBy(manager)
      .for(VM)
      .complete(() => undefined);
    const second = controllerManagedBy(manager)
      .for(VM)
      .complete(() => undefined);
    await expect(second).rejects.toMatchObject({ code: 'duplicate-name' });
  });

  it('refuses at build(), before it starts, a controller the runtime will refuse, and still registers the others', async () => {
    h = createHarness();
    const diskWriter: Controller = {
      name: 'disk-writer',
      inputs: [],
      outputs: [{ type: Disk.type, kind: 'exclusive' }],
      async run() {},
    };
    await h.runtime.register(diskWriter);
    await h.state.create(Host.create('h1'));
    const manager = createManager(h.runtime);
    const hosts = recorder(h);
    await controllerManagedBy(manager).for(Host).complete(hosts);
    // owns(Disk) declares a shared output of a type disk-writer writes exclusively.
    const build = controllerManagedBy(manager)
      .for(VM)
      .owns(Disk)
      .complete(() => undefined);
    await expect(build).rejects.toMatchObject({ name: 'BuilderError', code: 'registration' });
    const error = (await build.catch((e: unknown) => e)) as BuilderError;
    expect(error.cause).toBeInstanceOf(RegistrationError);
    expect(error.message).toContain('"disk-writer" writes exclusively');
    expect(manager.groupOf('vm')).toBeUndefined();
    await manager.start();
    await h.runtime.converge();
    expect(h.runtime.controllerNames()).toEqual(['disk-writer', 'host']);
    expect(hosts.ids()).toEqual(['h1']);
  });

  it('checks a controller at build() against those waiting for either group to start', async () => {
    h = createHarness();
    const manager = createManager(h.runtime);
    await controllerManagedBy(manager)
      .named('disk-maker')
      .for(Host)
      .withOptions({ outputs: [{ type: Disk.type, kind: 'exclusive' }] })
      .complete(() => undefined);
    const build = controllerManagedBy(manager)
      .for(VM)
      .owns(Disk)
      .withOptions({ needLeaderElection: false })
      .complete(() => undefined);
    await expect(build).rejects.toMatchObject({ code: 'registration' });
    await manager.start();
    expect(h.runtime.controllerNames()).toEqual(['disk-maker']);
  });

  it('aborts the signals of its runnables when it stops', async () => {
    h = createHarness();
    const signals: AbortSignal[] = [];
    const manager = createManager(h.runtime);
    await manager.add({ start: (signal) => void signals.push(signal) });
    await manager.add({ needLeaderElection: false, start: (signal) => void signals.push(signal) });
    await manager.start();
    expect(signals.map((s) => s.aborted)).toEqual([false, false]);
    await manager.stop();
    expect(signals.map((s) => s.aborted)).toEqual([true, true]);
  });
});
