/**
 * The Kubernetes `url` library: `url(s)` parses a URL the way Go's `url.ParseRequestURI` does
 * (an absolute URI, or an absolute path), `isURL(s)` says whether it would, and a URL answers
 * `getScheme()`, `getHost()`, `getHostname()`, `getPort()`, `getEscapedPath()` and
 * `getQuery()` (a map of lists of strings).
 */

import {
  celFunc,
  celMethod,
  CelScalar,
  celMap,
  listType,
  mapType,
  type CelFunc,
} from '@bufbuild/cel';
import { charge, sizeCost } from '../cost-budget.js';
import { expectTarget, OPAQUE_TYPE, OpaqueValue } from '../opaque-value.js';

/** A parsed URL; its canonical form is the text it was parsed from. */
export class Url extends OpaqueValue {
  override get celTypeName(): string {
    return 'kubernetes.URL';
  }

  constructor(
    readonly text: string,
    readonly scheme: string,
    readonly host: string,
    readonly path: string,
    readonly query: string,
  ) {
    super('url', text);
  }

  get hostname(): string {
    const host = this.host;
    if (host.startsWith('[')) return host.slice(1, host.indexOf(']'));
    const colon = host.lastIndexOf(':');
    return colon === -1 ? host : host.slice(0, colon);
  }

  get port(): string {
    const host = this.host;
    const colon = host.lastIndexOf(':');
    if (colon === -1 || host.lastIndexOf(']') > colon) return '';
    return host.slice(colon + 1);
  }
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s;
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
const HOST_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=%]*$/;

/**
 * Parses as the library does: checked by `url.ParseRequestURI` (throws with Go's kind of
 * message when that would fail), read by `url.Parse`, which drops a `#fragment`.
 */
export function parseUrl(text: string): Url {
  const url = parseRequestUri(text);
  const hash = text.indexOf('#');
  if (hash === -1) return url;
  const parsed = parseRequestUri(text.slice(0, hash));
  return new Url(text, parsed.scheme, parsed.host, parsed.path, parsed.query);
}

/** Parses like `url.ParseRequestURI`; throws with Go's kind of message when that would fail. */
function parseRequestUri(text: string): Url {
  charge(sizeCost(text.length));
  const fail = (why: string): never => {
    throw new Error(
      `URL parse error during conversion from string: parse ${JSON.stringify(text)}: ${why}`,
    );
  };
  if (text === '') fail('empty url');
  if (hasControlCharacter(text)) fail('invalid control character in URL');
  let rest = text;
  let scheme = '';
  const match = SCHEME.exec(text);
  if (match !== null) {
    scheme = (match[1] as string).toLowerCase();
    rest = match[2] as string;
  } else if (!text.startsWith('/')) {
    fail('invalid URI for request');
  }
  let query = '';
  const mark = rest.indexOf('?');
  if (mark !== -1) {
    query = rest.slice(mark + 1);
    rest = rest.slice(0, mark);
  }
  // An opaque URI (`mailto:x`): no authority, no path.
  if (scheme !== '' && !rest.startsWith('/')) return new Url(text, scheme, '', '', query);
  let host = '';
  if (rest.startsWith('//')) {
    const end = rest.indexOf('/', 2);
    const authority = end === -1 ? rest.slice(2) : rest.slice(2, end);
    rest = end === -1 ? '' : rest.slice(end);
    host = authority.slice(authority.lastIndexOf('@') + 1);
    checkHost(host, fail);
  }
  if (BAD_ESCAPE.test(rest)) fail('invalid URL escape');
  return new Url(text, scheme, host, rest, query);
}

/** Go refuses ASCII control characters anywhere in a URL (spaces are let through). */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function checkHost(host: string, fail: (why: string) => never): void {
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close === -1) fail("missing ']' in host");
    const after = host.slice(close + 1);
    if (after !== '' && !/^:[0-9]*$/.test(after))
      fail(`invalid port ${JSON.stringify(after)} after host`);
    return;
  }
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && !/^[0-9]*$/.test(host.slice(colon + 1))) {
    fail(`invalid port ${JSON.stringify(host.slice(colon))} after host`);
  }
  const name = colon === -1 ? host : host.slice(0, colon);
  if (!HOST_CHARS.test(name) || BAD_ESCAPE.test(name)) fail('invalid character in host name');
}

/** The query as Go's `url.ParseQuery` reads it (malformed pairs are skipped). */
function queryMap(query: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const pair of query.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    const decode = (s: string): string | undefined => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        return undefined;
      }
    };
    const key = decode(eq === -1 ? pair : pair.slice(0, eq));
    const value = decode(eq === -1 ? '' : pair.slice(eq + 1));
    if (key === undefined || value === undefined) continue;
    map.set(key, [...(map.get(key) ?? []), value]);
  }
  return map;
}

const URL_METHODS: readonly (readonly [string, (url: Url) => string])[] = [
  ['getScheme', (url) => url.scheme],
  ['getHost', (url) => url.host],
  ['getHostname', (url) => url.hostname],
  ['getPort', (url) => url.port],
  [
    'getEscapedPath',
    (url) => url.path.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/g, encodeURIComponent),
  ],
];

export const urlLibrary: readonly CelFunc[] = [
  celFunc('url', [CelScalar.STRING], OPAQUE_TYPE, (text) => parseUrl(text)),
  celFunc('isURL', [CelScalar.STRING], CelScalar.BOOL, (text) => {
    try {
      parseUrl(text);
      return true;
    } catch {
      return false;
    }
  }),
  ...URL_METHODS.map(([name, read]) =>
    celMethod(name, OPAQUE_TYPE, [], CelScalar.STRING, function () {
      return read(expectTarget(this, Url, name));
    }),
  ),
  celMethod(
    'getQuery',
    OPAQUE_TYPE,
    [],
    mapType(CelScalar.STRING, listType(CelScalar.STRING)),
    function () {
      return celMap(queryMap(expectTarget(this, Url, 'getQuery').query));
    },
  ),
];
