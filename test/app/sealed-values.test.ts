/**
 * A sensitive resource's golden document: its values sealed in either shape (cosi's `spec`, a
 * Kubernetes-shaped object's fields but its head), and what a comparison could not compare named.
 */
import { describe, expect, it } from 'vitest';
import type { ResourceDefinition } from '../../src/engine/resource/definition.js';
import {
  comparableSealed,
  fingerprinter,
  sealDocument,
} from '../../src/app/check/sealed-values.js';

const cosiShaped = { type: 'Creds.test.dev', sensitivity: 'sensitive' } as ResourceDefinition;
const kubeShaped = {
  type: 'Tokens.example.org',
  sensitivity: 'sensitive',
  kubernetes: { apiVersion: 'example.org/v1', kind: 'Token' },
} as unknown as ResourceDefinition;

describe('sealDocument', () => {
  it('seals each field of a Kubernetes-shaped object but its head, bound to the resource', async () => {
    const key = await fingerprinter('k');
    const doc = {
      apiVersion: 'example.org/v1',
      kind: 'Token',
      metadata: { name: 'a' },
      spec: { value: 's3cret' },
      data: { x: 'y' },
    };
    const sealed = sealDocument(doc, kubeShaped, 'default/Tokens.example.org/a', key);
    expect(sealed.apiVersion).toBe('example.org/v1');
    expect(sealed.metadata).toEqual({ name: 'a' });
    expect(sealed.spec).toMatch(/^hmac-sha256:[0-9a-f]{32}$/);
    expect(sealed.data).toMatch(/^hmac-sha256:[0-9a-f]{32}$/);
    expect(JSON.stringify(sealed)).not.toContain('s3cret');
    const other = sealDocument(doc, kubeShaped, 'default/Tokens.example.org/b', key);
    expect(other.spec).not.toBe(sealed.spec);
    // Without a key, what is there, not what it holds.
    expect(sealDocument(doc, kubeShaped, 'default/Tokens.example.org/a', undefined).spec).toBe(
      '***',
    );
  });

  it('seals a spec that is no map of fields whole', async () => {
    const key = await fingerprinter('k');
    const sealed = sealDocument({ metadata: {}, spec: 'hunter2' }, cosiShaped, 'x', key);
    expect(sealed.spec).toMatch(/^hmac-sha256:/);
  });
});

describe('comparableSealed', () => {
  it('names the fields recorded as *** and the fingerprints there is no key for', () => {
    const want = { metadata: {}, spec: { user: '***', password: 'hmac-sha256:'.padEnd(44, 'a') } };
    const got = { metadata: {}, spec: { user: '***', password: '***' } };
    const { got: comparable, unsealed } = comparableSealed(want, got, cosiShaped);
    expect(unsealed).toEqual({ notRecorded: ['user'], noKey: ['password'] });
    expect(comparable).toEqual(want);
  });

  it('compares fingerprints as they are, and a field added or removed', () => {
    const want = { metadata: {}, spec: { password: 'hmac-sha256:'.padEnd(44, 'a') } };
    const got = {
      metadata: {},
      spec: { password: 'hmac-sha256:'.padEnd(44, 'b'), extra: 'hmac-sha256:'.padEnd(44, 'c') },
    };
    const { got: comparable, unsealed } = comparableSealed(want, got, cosiShaped);
    expect(unsealed).toEqual({ notRecorded: [], noKey: [] });
    expect(comparable).toEqual(got);
  });
});
