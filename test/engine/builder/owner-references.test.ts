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
