import { describe, expect, it } from 'vitest';
import {
  getControllerOf,
  hasControllerReference,
  hasOwnerReference,
  OwnerReferenceError,
  removeControllerReference,
  removeOwnerReference,
  setControllerReference,
  setOwnerReference,
} from '../../../src/engine/builder/owner-references.js';
import { defineResource } from '../../../src/index.js';
import { Disk, Host, VM } from './fixtures.js';

describe('setControllerReference', () => {
  it('adds a controller reference to the owner', () => {
    const disk = Disk.create('root');
    setControllerReference(VM.create('web'), disk);
    expect(disk.metadata.ownerReferences).toEqual([{ type: VM.type, id: 'web', controller: true }]);
  });

  it('is a no-op when the owner already controls the object', () => {
    const disk = Disk.create('root');
    setControllerReference(VM.create('web'), disk);
    setControllerReference(VM.create('web'), disk);
    expect(disk.metadata.ownerReferences).toHaveLength(1);
  });

  it('promotes a plain reference to the same owner', () => {
    const disk = Disk.create('root');
    setOwnerReference(VM.create('web'), disk);
    setControllerReference(VM.create('web'), disk);
    expect(disk.metadata.ownerReferences).toEqual([{ type: VM.type, id: 'web', controller: true }]);
  });

  it('refuses a second controller with already-owned and leaves the object unchanged', () => {
    const disk = Disk.create('root');
    setControllerReference(VM.create('web'), disk);
    const attempt = () => setControllerReference(Host.create('h1'), disk);
    expect(attempt).toThrow(OwnerReferenceError);
    expect(attempt).toThrow(expect.objectContaining({ code: 'already-owned' }));
    expect(disk.metadata.ownerReferences).toEqual([{ type: VM.type, id: 'web', controller: true }]);
  });

  it('refuses an owner in another namespace with cross-namespace', () => {
    const disk = Disk.create('root', undefined, { namespace: 'lab' });
    expect(() => setControllerReference(VM.create('web'), disk)).toThrow(
      expect.objectContaining({ code: 'cross-namespace' }),
    );
    expect(disk.metadata.ownerReferences).toEqual([]);
  });
});

describe('setOwnerReference', () => {
  it('adds plain references beside a controller reference', () => {
    const disk = Disk.create('root');
    setControllerReference(VM.create('web'), disk);
    setOwnerReference(Host.create('h1'), disk);
    expect(disk.metadata.ownerReferences).toEqual([
      { type: VM.type, id: 'web', controller: true },
      { type: Host.type, id: 'h1' },
    ]);
  });

  it('replaces a reference to the same owner, demoting a controller reference', () => {
    const disk = Disk.create('root');
    setControllerReference(VM.create('web'), disk);
    setOwnerReference(VM.create('web'), disk);
    expect(disk.metadata.ownerReferences).toEqual([{ type: VM.type, id: 'web' }]);
  });

  it('refuses an owner in another namespace with cross-namespace', () => {
    const disk = Disk.create('root', undefined, { namespace: 'lab' });
    expect(() => setOwnerReference(VM.create('web'), disk)).toThrow(
      expect.objectContaining({ code: 'cross-namespace' }),
    );
  });
});

describe('removing and checking references', () => {
  it('removeOwnerReference removes the reference and says whether there was one', () => {
    const disk = Disk.create('root');
    setOwnerReference(VM.create('web'), disk);
    setOwnerReference(Host.create('h1'), disk);
    expect(removeOwnerReference(VM.create('web'), disk)).toBe(true);
    expect(removeOwnerReference(VM.create('web'), disk)).toBe(false);
    expect(disk.metadata.ownerReferences).toEqual([{ type: Host.type, id: 'h1' }]);
  });

  it('removeControllerReference removes only a controller reference to that owner', () => {
    const disk = Disk.create('root');
    setOwnerReference(Host.create('h1'), disk);
    expect(removeControllerReference(Host.create('h1'), disk)).toBe(false);
    setControllerReference(VM.create('web'), disk);
    expect(removeControllerReference(VM.create('web'), disk)).toBe(true);
    expect(disk.metadata.ownerReferences).toEqual([{ type: Host.type, id: 'h1' }]);
  });

  it('hasOwnerReference matches type and id, not labels', () => {
    const disk = Disk.create('root', undefined, { labels: { vm: 'db' } });
    setOwnerReference(VM.create('web'), disk);
    expect(hasOwnerReference(VM.create('web'), disk)).toBe(true);
    expect(hasOwnerReference(VM.create('db'), disk)).toBe(false);
    expect(hasOwnerReference(Host.create('web'), disk)).toBe(false);
  });

  it('hasControllerReference and getControllerOf find the controller reference', () => {
    const disk = Disk.create('root');
    setOwnerReference(Host.create('h1'), disk);
    expect(hasControllerReference(disk)).toBe(false);
    setControllerReference(VM.create('web'), disk);
    expect(hasControllerReference(disk)).toBe(true);
    expect(getControllerOf(disk)).toEqual({ type: VM.type, id: 'web', controller: true });
  });
});

describe('cluster-scoped owners (with a scheme)', () => {
  /** A cluster-scoped kind, kept in `default` as cosi keeps every one. */
  const Tenant = defineResource({ type: 'Tenants.example.org' });
  const scheme = {
    kubernetesKind: (type: string) =>
      type === Tenant.type || type === 'Nodes.example.org'
        ? { apiVersion: 'example.org/v1', kind: type, namespaced: false }
        : { apiVersion: 'example.org/v1', kind: type, namespaced: true },
  };
  const Node = defineResource({ type: 'Nodes.example.org' });

  it('lets a cluster-scoped owner control an object in any namespace', () => {
    const disk = Disk.create('root', undefined, { namespace: 'team-a' });
    setControllerReference(Tenant.create('acme'), disk, { scheme });
    expect(disk.metadata.ownerReferences).toEqual([
      { type: Tenant.type, id: 'acme', controller: true },
    ]);
    const other = Disk.create('data', undefined, { namespace: 'team-b' });
    setOwnerReference(Tenant.create('acme'), other, { scheme });
    expect(other.metadata.ownerReferences).toEqual([{ type: Tenant.type, id: 'acme' }]);
  });

  it('finds and removes the reference to a cluster-scoped owner from another namespace', () => {
    const disk = Disk.create('root', undefined, { namespace: 'team-a' });
    setControllerReference(Tenant.create('acme'), disk, { scheme });
    setControllerReference(Tenant.create('acme'), disk, { scheme });
    expect(disk.metadata.ownerReferences).toHaveLength(1);
    expect(hasOwnerReference(Tenant.create('acme'), disk, { scheme })).toBe(true);
    expect(removeControllerReference(Tenant.create('acme'), disk, { scheme })).toBe(true);
    expect(disk.metadata.ownerReferences).toEqual([]);
  });

  it('still refuses a namespaced owner in another namespace', () => {
    const disk = Disk.create('root', undefined, { namespace: 'team-a' });
    expect(() => setControllerReference(VM.create('web'), disk, { scheme })).toThrow(
      expect.objectContaining({ code: 'cross-namespace' }),
    );
    expect(disk.metadata.ownerReferences).toEqual([]);
  });

  it('refuses a namespaced owner of a cluster-scoped object, as controller-runtime does', () => {
    const node = Node.create('n1');
    expect(() => setOwnerReference(VM.create('web'), node, { scheme })).toThrow(
      expect.objectContaining({
        code: 'namespaced-owner',
        message: expect.stringContaining(
          'cluster-scoped resource must not have a namespace-scoped owner',
        ) as unknown,
      }),
    );
    setControllerReference(Tenant.create('acme'), node, { scheme });
    expect(node.metadata.ownerReferences).toEqual([
      { type: Tenant.type, id: 'acme', controller: true },
    ]);
  });

  it('without a scheme, says how to make a cluster-scoped owner known', () => {
    const disk = Disk.create('root', undefined, { namespace: 'team-a' });
    expect(() => setControllerReference(Tenant.create('acme'), disk)).toThrow(
      /cross-namespace owner references are disallowed: .* pass \{ scheme: ctx\.client \}/,
    );
  });
});
