import { describe, expect, it } from 'vitest';
import { objectUid } from '../../../src/engine/resource/object-uid.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('objectUid', () => {
  it('is a UUID that depends on the type, the namespace and the name, and on nothing else', () => {
    const uid = objectUid('ConfigMaps.core', 'shop', 'web-config');
    expect(uid).toMatch(UUID);
    // The value itself is part of the output contract: golden files hold it.
    expect(uid).toBe('701b55bc-2202-5e1e-52ee-04baab20480c');
    expect(objectUid('ConfigMaps.core', 'shop', 'web-config')).toBe(uid);
    const others = [
      objectUid('Secrets.core', 'shop', 'web-config'),
      objectUid('ConfigMaps.core', 'default', 'web-config'),
      objectUid('ConfigMaps.core', 'shop', 'web'),
      objectUid('ConfigMaps.core', undefined, 'web-config'),
    ];
    expect(new Set([uid, ...others]).size).toBe(5);
  });
});
