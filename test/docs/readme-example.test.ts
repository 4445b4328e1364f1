/**
 * The library example of README.md, verbatim apart from the imports: if it stops working, so
 * does this test.
 */
import { expect, it } from 'vitest';
import {
  createInMemoryState,
  createRuntime,
  defineResource,
  listAll,
  SimulatedClock,
  type Controller,
} from '../../src/index.js';

it('runs the README library example', async () => {
  // --- README example starts
  const VM = defineResource<{ cpus: number }>({ type: 'VMs.example.org' });
  const Quota = defineResource<{ cpus: number }>({ type: 'Quotas.example.org' });

  // Sums the CPUs of every VM into one Quota.
  const quota: Controller = {
    name: 'QuotaController',
    inputs: [{ namespace: VM.namespace, type: VM.type, kind: 'weak' }],
    outputs: [{ type: Quota.type, kind: 'exclusive' }],
    async run(rt) {
      for await (const _ of rt.events()) {
        const vms = await listAll(rt, VM);
        await rt.modify(Quota.create('total'), (q) => {
          q.spec.cpus = vms.map((vm) => vm.spec.cpus).reduce((a, b) => a + b, 0);
        });
        rt.resetRestartBackoff();
      }
    },
  };

  const clock = new SimulatedClock();
  const state = createInMemoryState({ now: () => clock.now() });
  const runtime = createRuntime(state, { clock });
  await runtime.register(quota);
  await state.create(VM.create('web-1', { cpus: 2 }));
  await state.create(VM.create('web-2', { cpus: 4 }));
  const report = await runtime.converge();
  const total = await state.get<{ cpus: number }>(Quota.pointer('total'));
  console.log(report.converged, total.spec.cpus); // true 6
  await runtime.stop();
  // --- README example ends
  expect([report.converged, total.spec.cpus]).toEqual([true, 6]);
});
