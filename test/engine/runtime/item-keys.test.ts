import { describe, expect, it } from 'vitest';
import { ItemKeys } from '../../../src/engine/runtime/item-keys.js';

const pointer = (id: string, type = 'Ints.test.cosi.dev', namespace = 'default') => ({
  namespace,
  type,
  id,
});

describe('item keys', () => {
  it('give the same object for the same resource, whatever object names it', () => {
    const keys = new ItemKeys();
    const key = keys.intern(pointer('a'));
    expect(keys.intern({ ...pointer('a'), extra: true } as ReturnType<typeof pointer>)).toBe(key);
    expect(key.pointer).toEqual(pointer('a'));
    expect(keys.find(pointer('a'))).toBe(key);
    expect(keys.size).toBe(1);
  });

  it('tell resources apart by type, namespace and id', () => {
    const keys = new ItemKeys();
    const all = [
      keys.intern(pointer('a')),
      keys.intern(pointer('b')),
      keys.intern(pointer('a', 'Strs.test.cosi.dev')),
      keys.intern(pointer('a', 'Ints.test.cosi.dev', 'other')),
    ];
    expect(new Set(all).size).toBe(4);
    expect(keys.size).toBe(4);
  });

  it('make nothing on find', () => {
    const keys = new ItemKeys();
    expect(keys.find(pointer('a'))).toBeUndefined();
    expect(keys.find(pointer('a', 'Strs.test.cosi.dev'))).toBeUndefined();
    expect(keys.size).toBe(0);
  });

  it('make a new object after a release, and ignore the release of a stale one', () => {
    const keys = new ItemKeys();
    const first = keys.intern(pointer('a'));
    keys.release(first);
    expect(keys.find(pointer('a'))).toBeUndefined();
    const second = keys.intern(pointer('a'));
    expect(second).not.toBe(first);
    keys.release(first);
    expect(keys.find(pointer('a'))).toBe(second);
    expect(keys.size).toBe(1);
  });
});
