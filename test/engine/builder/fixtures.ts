/**
 * Types and helpers for the builder tests: VMs own disks, configs name the VMs they apply to,
 * hosts are a second owner type.
 */
import { defineResource } from '../../../src/index.js';
import type {
  ReconcileContext,
  ReconcileFunc,
  ReconcileRequest,
  Result,
} from '../../../src/engine/builder/reconciler.js';
import { createHarness, type Harness } from '../runtime/test-controllers.js';

export { createHarness, type Harness };

export const VM = defineResource<{ cpus: number; image: string }>({
  type: 'VMs.example.org',
  defaultSpec: () => ({ cpus: 1, image: 'debian' }),
});
export const Disk = defineResource<{ size: number }>({
  type: 'Disks.example.org',
  defaultSpec: () => ({ size: 10 }),
});
export const Config = defineResource<{ vms: string[] }>({
  type: 'Configs.example.org',
  defaultSpec: () => ({ vms: [] }),
});
export const Host = defineResource<{ zone: string }>({
  type: 'Hosts.example.org',
  defaultSpec: () => ({ zone: 'a' }),
});

/** One reconcile as a recorder saw it: the request and the virtual time. */
export interface Call extends ReconcileRequest {
  readonly at: number;
}

/** A reconcile function that records its calls, then runs `then` (if any). */
export function recorder(
  h: Harness,
  then?: (
    ctx: ReconcileContext,
    request: ReconcileRequest,
    call: number,
  ) => ReturnType<ReconcileFunc>,
): {
  readonly calls: Call[];
  ids(): string[];
  reconcile(ctx: ReconcileContext, request: ReconcileRequest): Promise<Result | undefined>;
} {
  const calls: Call[] = [];
  return {
    calls,
    ids: () => calls.map((c) => c.id),
    async reconcile(ctx, request) {
      calls.push({ ...request, at: h.clock.now() });
      const outcome = await then?.(ctx, request, calls.length);
      return outcome ?? undefined;
    },
  };
}
