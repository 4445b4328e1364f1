/** `noOwner` on a controller's create and modify: COSI's `WithCreateNoOwner` / `WithModifyNoOwner`. */
import { afterEach, describe, expect, it } from 'vitest';
import { defineResource, type ControllerRuntime } from '../../../src/index.js';
import { createHarness, type Harness } from '../../support/harness.js';

const Ticket = defineResource<{ title: string }>({
  type: 'Tickets.desk.example.org',
  defaultNamespace: 'desk',
  defaultSpec: () => ({ title: '' }),
});
const Queue = defineResource<{ open: number }>({
  type: 'Queues.desk.example.org',
  defaultNamespace: 'desk',
  defaultSpec: () => ({ open: 0 }),
});

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

/** Runs `pass` once in a controller that outputs tickets; resolves with what it threw. */
async function inController(pass: (rt: ControllerRuntime) => Promise<unknown>): Promise<unknown> {
  let outcome: unknown = 'ok';
  await h.runtime.register({
    name: 'Triage',
    inputs: [],
    outputs: [{ type: Ticket.type, kind: 'shared' }],
    async run(rt) {
      for await (const _ of rt.events()) {
        await pass(rt).catch((e: unknown) => {
          outcome = e;
        });
        return;
      }
    },
  });
  await h.runtime.converge();
  return outcome;
}

const ownerOf = async (id: string): Promise<string> =>
  (await h.state.get(Ticket.pointer(id))).metadata.owner;

describe('writes without an owner', () => {
  // Ported from cosi-project/runtime pkg/state/owned/owned_test.go TestOwned (WithModifyNoOwner, WithCreateNoOwner)
  it('create and modify store the resource unowned when asked, owned by the controller otherwise', async () => {
    h = createHarness();
    const outcome = await inController(async (rt) => {
      await rt.modify(Ticket.create('r3'), () => undefined, { noOwner: true });
      await rt.create(Ticket.create('r4'), { noOwner: true });
      await rt.create(Ticket.create('r5'));
    });
    expect(outcome).toBe('ok');
    expect([await ownerOf('r3'), await ownerOf('r4'), await ownerOf('r5')]).toEqual([
      '',
      '',
      'Triage',
    ]);
  });

  it('modify with noOwner updates an unowned resource, and only an unowned one', async () => {
    h = createHarness();
    await h.state.create(Ticket.create('user', { title: 'printer' }));
    await h.state.create(Ticket.create('other', { title: 'wifi' }), { owner: 'Other' });
    const outcome = await inController(async (rt) => {
      await rt.modify(
        Ticket.create('user'),
        (d) => {
          d.spec.title = 'printer (triaged)';
        },
        { noOwner: true },
      );
      await rt.modify(
        Ticket.create('other'),
        (d) => {
          d.spec.title = 'stolen';
        },
        { noOwner: true },
      );
    });
    expect(outcome).toMatchObject({ code: 'conflict', reason: 'owner' });
    expect((await h.state.get<{ title: string }>(Ticket.pointer('user'))).spec.title).toBe(
      'printer (triaged)',
    );
    expect(await ownerOf('user')).toBe('');
  });

  it('is still a write of an output only', async () => {
    h = createHarness();
    const outcome = await inController((rt) => rt.create(Queue.create('q'), { noOwner: true }));
    expect(outcome).toMatchObject({ code: 'access-denied', rule: 'write' });
  });
});
