import { describe, expect, it } from 'vitest';
import type { OwnerReference } from '../../../src/index.js';
import type { ObjectLike } from '../../../src/engine/builder/events.js';
import {
  enqueueRequestForObject,
  enqueueRequestForOwner,
  enqueueRequestsFromMapFunc,
  handlerFuncs,
  type EventHandler,
  type RequestQueue,
} from '../../../src/engine/builder/handlers.js';
import type { Request } from '../../../src/engine/builder/reconciler.js';
import { Config, Disk, Host, VM } from './fixtures.js';

/** A queue that keeps every request it is given, duplicates included. */
function collect(): RequestQueue & { readonly requests: Request[] } {
  const requests: Request[] = [];
  return { requests, add: (r) => requests.push(r) };
}

const disk = (id: string, refs: OwnerReference[], namespace = 'default') =>
  Disk.create(id, { size: 1 }, { namespace, ownerReferences: refs });

function create(handler: EventHandler, object: ObjectLike): Request[] {
  const q = collect();
  handler.create?.({ object }, q);
  return q.requests;
}

function update(handler: EventHandler, objectOld: ObjectLike, objectNew: ObjectLike): Request[] {
  const q = collect();
  handler.update?.({ objectOld, objectNew }, q);
  return q.requests;
}

describe('enqueueRequestForObject', () => {
  it('enqueues the object itself on create, delete and generic events', () => {
    const handler = enqueueRequestForObject();
    const vm = VM.create('web', undefined, { namespace: 'lab' });
    const q = collect();
    handler.create?.({ object: vm }, q);
    handler.delete?.({ object: vm }, q);
    handler.generic?.({ object: vm }, q);
    const expected = { namespace: 'lab', id: 'web', type: VM.type };
    expect(q.requests).toEqual([expected, expected, expected]);
  });

  it('enqueues the new object on update', () => {
    const requests = update(enqueueRequestForObject(), VM.create('old'), VM.create('new'));
    expect(requests).toEqual([{ namespace: 'default', id: 'new', type: VM.type }]);
  });
});

describe('enqueueRequestForOwner', () => {
  it('enqueues the controller owner of the owner type, in the object namespace', () => {
    const handler = enqueueRequestForOwner(VM, { onlyControllerOwner: true });
    const requests = create(
      handler,
      disk('root', [{ type: VM.type, id: 'web', controller: true }], 'lab'),
    );
    expect(requests).toEqual([{ namespace: 'lab', id: 'web', type: VM.type }]);
  });

  it('ignores plain owner references when only the controller owner counts', () => {
    const handler = enqueueRequestForOwner(VM, { onlyControllerOwner: true });
    expect(create(handler, disk('root', [{ type: VM.type, id: 'web' }]))).toEqual([]);
  });

  it('enqueues nothing when the controller reference is of another type, even beside a plain one of the owner type', () => {
    const handler = enqueueRequestForOwner(VM, { onlyControllerOwner: true });
    const refs = [
      { type: Host.type, id: 'h1', controller: true },
      { type: VM.type, id: 'web' },
    ];
    expect(create(handler, disk('root', refs))).toEqual([]);
  });

  it('enqueues every reference of the owner type, and only of it, when every owner counts', () => {
    const handler = enqueueRequestForOwner(VM);
    const refs = [
      { type: VM.type, id: 'a', controller: true },
      { type: Host.type, id: 'h1' },
      { type: VM.type, id: 'b' },
    ];
    expect(create(handler, disk('shared', refs)).map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('never treats labels as ownership', () => {
    const handler = enqueueRequestForOwner(VM);
    const labelled = Disk.create('root', { size: 1 }, { labels: { vm: 'web', owner: 'web' } });
    expect(create(handler, labelled)).toEqual([]);
  });

  it('enqueues the owners of both the old and the new object on update', () => {
    const handler = enqueueRequestForOwner(VM, { onlyControllerOwner: true });
    const before = disk('root', [{ type: VM.type, id: 'a', controller: true }]);
    const after = disk('root', [{ type: VM.type, id: 'b', controller: true }]);
    expect(update(handler, before, after).map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('enqueues an owner named by both the old and the new object once', () => {
    const handler = enqueueRequestForOwner(VM, { onlyControllerOwner: true });
    const ref = [{ type: VM.type, id: 'a', controller: true }];
    expect(update(handler, disk('root', ref), disk('root', ref)).map((r) => r.id)).toEqual(['a']);
  });

  it('accepts the owner type by name', () => {
    const handler = enqueueRequestForOwner(VM.type);
    expect(create(handler, disk('root', [{ type: VM.type, id: 'web' }])).map((r) => r.id)).toEqual([
      'web',
    ]);
  });
});

describe('enqueueRequestsFromMapFunc', () => {
  const byVMs = enqueueRequestsFromMapFunc((config: ReturnType<typeof Config.create>) =>
    config.spec.vms.map((id) => ({ namespace: config.metadata.namespace, id })),
  );

  it('refuses anything but a map function where it is called, not at every event', () => {
    expect(() => enqueueRequestsFromMapFunc(undefined as never)).toThrow(
      new TypeError('enqueueRequestsFromMapFunc takes a function, got undefined'),
    );
  });

  it('enqueues what the function returns for the object', () => {
    const requests = create(byVMs, Config.create('c', { vms: ['a', 'b'] }));
    expect(requests).toEqual([
      { namespace: 'default', id: 'a' },
      { namespace: 'default', id: 'b' },
    ]);
  });

  it('maps both the old and the new object on update and enqueues each request once', () => {
    const requests = update(
      byVMs,
      Config.create('c', { vms: ['a', 'b'] }),
      Config.create('c', { vms: ['b', 'c'] }),
    );
    expect(requests.map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });
});

describe('handlerFuncs', () => {
  it('ignores the kinds of events it has no function for', () => {
    const handler = handlerFuncs({
      delete: (e, q) => q.add({ namespace: 'x', id: e.object.metadata.id }),
    });
    const q = collect();
    const vm = VM.create('web');
    handler.create?.({ object: vm }, q);
    handler.update?.({ objectOld: vm, objectNew: vm }, q);
    handler.delete?.({ object: vm }, q);
    expect(q.requests).toEqual([{ namespace: 'x', id: 'web' }]);
  });

  it("refuses controller-runtime's CreateFunc, with which the handler ignored every event unseen", () => {
    const funcs = { CreateFunc: () => undefined } as unknown as EventHandler;
    expect(() => handlerFuncs(funcs)).toThrow(
      new TypeError('handlerFuncs: unknown key "CreateFunc" (did you mean create?)'),
    );
    expect(() => handlerFuncs({ generic: 'all' } as unknown as EventHandler)).toThrow(
      'handlerFuncs: generic must be a function, got "all"',
    );
  });
});
