import { describe, expect, it } from 'vitest';
import { formatStateLocation, parseStateUrl, StateUrlError } from '../../src/app/state-url.js';

describe('parseStateUrl', () => {
  it('reads memory', () => {
    expect(parseStateUrl('memory')).toEqual({ kind: 'memory' });
  });

  it('reads etcd://HOST:PORT with the default prefix', () => {
    expect(parseStateUrl('etcd://127.0.0.1:2379')).toEqual({
      kind: 'etcd',
      endpoint: 'http://127.0.0.1:2379',
      prefix: '/cosi',
    });
  });

  it('reads a prefix, without its trailing slash', () => {
    expect(parseStateUrl('etcd://etcd.local:23790/teams/a/')).toEqual({
      kind: 'etcd',
      endpoint: 'http://etcd.local:23790',
      prefix: '/teams/a',
    });
  });

  it('reads a percent-encoded prefix', () => {
    expect(parseStateUrl('etcd://localhost:2379/a%2Fb%20c')).toMatchObject({ prefix: '/a/b c' });
  });

  it('reads an IPv6 host', () => {
    expect(parseStateUrl('etcd://[::1]:2379/x')).toMatchObject({
      endpoint: 'http://[::1]:2379',
      prefix: '/x',
    });
  });

  it.each([
    ['etcd://localhost', /no port/],
    ['localhost:2379', /not a state URL/],
    ['redis://localhost:6379', /unknown state scheme "redis"/],
    ['etcd://user:pw@localhost:2379', /credentials/],
    ['etcd://localhost:2379?x=1', /query/],
    ['etcd://localhost:99999', /not a valid URL/],
    ['', /not a state URL/],
    // decodeURIComponent threw a URIError: a stack trace and exit 70.
    ['etcd://localhost:2379/a%zz', /the prefix is not valid percent-encoding/],
    ['etcd://localhost:2379/a%', /the prefix is not valid percent-encoding/],
    ['etcd://localhost:2379/a%00b', /the prefix holds a control character/],
    ['etcd://localhost:2379/a%0Ab', /the prefix holds a control character/],
  ])('refuses %j', (text, message) => {
    expect(() => parseStateUrl(text)).toThrow(StateUrlError);
    expect(() => parseStateUrl(text)).toThrow(message);
  });

  it('formats a location back to its URL', () => {
    expect(formatStateLocation(parseStateUrl('etcd://127.0.0.1:2379/a'))).toBe(
      'etcd://127.0.0.1:2379/a',
    );
    expect(formatStateLocation(parseStateUrl('memory'))).toBe('memory');
  });
});
