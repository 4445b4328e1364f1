/**
 * `defineResource`'s `create(id)` without a spec: a full draft when the type has a `defaultSpec`
 * (or a spec whose fields are all optional), otherwise a draft whose spec is `{}`, which
 * `modify` fills in and `create` refuses at compile time (the typecheck fails otherwise).
 */
import { describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  createRuntime,
  defineResource,
  SimulatedClock,
  type Controller,
  type Resource,
} from '../../../src/index.js';

interface VMSpec {
  cpus: number;
  image: string;
}
const VM = defineResource<VMSpec>({ type: 'VMs.test.cosi.dev' });
const Sized = defineResource<{ cpus: number }>({
  type: 'Sizeds.test.cosi.dev',
  defaultSpec: () => ({ cpus: 1 }),
});
const Optional = defineResource<{ cpus?: number }>({ type: 'Optionals.test.cosi.dev' });
const Untyped = defineResource({ type: 'Untypeds.test.cosi.dev' });

describe('create(id) without a spec', () => {
  it('is refused by create for a spec with required fields and no defaultSpec', async () => {
    const state = createInMemoryState();
    // @ts-expect-error its spec would be stored as `{}`, read as a VMSpec
    const stored: Resource<VMSpec> = await state.create(VM.create('web-1'));
    // At run time nothing stops it: this is what the compile error prevents.
    expect(stored.spec).toEqual({});
    const web2 = await state.create(VM.create('web-2', { cpus: 2, image: 'debian' }));
    expect(web2.spec.cpus).toBe(2);
  });

  it('is accepted by create with a defaultSpec, or when every field is optional', async () => {
    const state = createInMemoryState();
    expect((await state.create(Sized.create('a'))).spec).toEqual({ cpus: 1 });
    expect((await state.create(Optional.create('a'))).spec).toEqual({});
    expect((await state.create(Untyped.create('a'))).spec).toEqual({});
  });

  it('is the empty of a modify, whose updater fills the spec in', async () => {
    const state = createInMemoryState();
    await state.modify(VM.create('web-1'), (draft) => {
      draft.spec.cpus = 2;
      draft.spec.image = 'debian';
    });
    expect((await state.get<VMSpec>(VM.pointer('web-1'))).spec).toEqual({
      cpus: 2,
      image: 'debian',
    });
  });

  it('is refused by a controller create too, and accepted by its modify', async () => {
    const clock = new SimulatedClock();
    const state = createInMemoryState({ now: () => clock.now() });
    const runtime = createRuntime(state, { clock });
    const controller: Controller = {
      name: 'VMMaker',
      inputs: [],
      outputs: [{ type: VM.type, kind: 'exclusive' }],
      async run(rt) {
        for await (const _ of rt.events()) {
          await rt.modify(VM.create('made'), (draft) => {
            draft.spec = { cpus: 1, image: 'alpine' };
          });
          if (rt.name === 'never') {
            // @ts-expect-error a controller's create refuses a spec-less draft as the state's does
            await rt.create(VM.create('other'));
          }
          rt.resetRestartBackoff();
        }
      },
    };
    await runtime.register(controller);
    expect((await runtime.converge()).converged).toBe(true);
    expect((await state.get<VMSpec>(VM.pointer('made'))).spec).toEqual({
      cpus: 1,
      image: 'alpine',
    });
    await runtime.stop();
  });
});
