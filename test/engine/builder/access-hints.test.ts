import { afterEach, describe, expect, it } from 'vitest';
import { AccessError } from '../../../src/index.js';
import { controllerManagedBy } from '../../../src/engine/builder/builder.js';
import { handlerFuncs } from '../../../src/engine/builder/handlers.js';
import { createHarness, Disk, Host, VM, type Harness } from './fixtures.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

/** The error the reconcile of `vm/web` threw, after one converge. */
async function refusal(
  reconcile: Parameters<ReturnType<typeof controllerManagedBy>['complete']>[0],
  watchHost = false,
): Promise<unknown> {
  h = createHarness();
  await h.state.create(VM.create('web'));
  await h.state.create(Host.create('h1'));
  let caught: unknown;
  const builder = controllerManagedBy(h.runtime).for(VM).owns(Disk);
  if (watchHost) builder.watches(Host, handlerFuncs({}));
  await builder.complete(async (ctx, request) => {
    try {
      await (typeof reconcile === 'function' ? reconcile(ctx, request) : undefined);
    } catch (error) {
      caught = error;
      throw error;
    }
  });
  const report = await h.runtime.converge({ maxAttempts: 1 });
  const failure = report.controllers.find((c) => c.name === 'vm')?.lastError?.message;
  return caught === undefined ? 'ok' : failure;
}

describe('a refused read or write of a builder controller', () => {
  it('says to watch the type, which a builder controller can do, not to declare an input it cannot', async () => {
    const message = await refusal(async (ctx) => {
      await ctx.client.get(Host.pointer('h1'));
    });
    expect(message).toBe(
      `controller "vm" may not read Hosts.example.org(default/h1): it neither watches Hosts.example.org in namespace "default" nor writes it (watch it: .watches(<the Hosts.example.org type>, handlerFuncs({})) reads it without reconciling on its changes; a handler that maps them to requests also reconciles)`,
    );
    // Which is the way out.
    expect(
      await refusal(async (ctx) => {
        await ctx.client.get(Host.pointer('h1'));
      }, true),
    ).toBe('ok');
  });

  it('says to own the type or list it among the outputs', async () => {
    const message = await refusal(async (ctx) => {
      await ctx.client.create(Host.create('h2'));
    });
    expect(message).toBe(
      `controller "vm" may not create Hosts.example.org(default/h2): Hosts.example.org is not one of its outputs (declare it: .owns(<the Hosts.example.org type>), or .withOptions({ outputs: [<the Hosts.example.org type>] }) for a type it writes without owning)`,
    );
  });

  it("is still an access error: inside the reconcile the runtime's, with what was attempted", async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    let caught: unknown;
    await controllerManagedBy(h.runtime)
      .for(VM)
      .complete(async (ctx) => {
        try {
          await ctx.client.list(Host.kind());
        } catch (error) {
          caught = error;
          throw error;
        }
      });
    const report = await h.runtime.converge({ maxAttempts: 1 });
    expect(caught).toBeInstanceOf(AccessError);
    expect(caught).toMatchObject({ rule: 'read', attempted: 'list default/Hosts.example.org' });
    const last = report.controllers.find((c) => c.name === 'vm')?.lastError;
    expect(last?.code).toBe('access-denied');
    expect(last?.message).toMatch(
      /^controller "vm" may not list default\/Hosts.example.org: it neither watches/,
    );
  });
});
