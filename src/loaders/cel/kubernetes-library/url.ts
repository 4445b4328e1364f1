/**
 * The Kubernetes `url` library: `url(s)` parses a URL the way Go's `url.ParseRequestURI` does
 * (an absolute URI, or an absolute path: `go-request-uri.ts`), `isURL(s)` says whether it would, and a URL answers
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
import { parseRequestUri } from '../../go-request-uri.js';

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

/**
 * Parses as the library does: checked by `url.ParseRequestURI` (throws with Go's kind of
 * message when that would fail), read by `url.Parse`, which drops a `#fragment`.
 */
export function parseUrl(text: string): Url {
  const url = requestUrl(text, text);
  const hash = text.indexOf('#');
  return hash === -1 ? url : requestUrl(text.slice(0, hash), text);
}

/** `text` parsed by `url.ParseRequestURI` as a URL written `written`; throws when it fails. */
function requestUrl(text: string, written: string): Url {
  charge(sizeCost(text.length));
  const parsed = parseRequestUri(text);
  if (typeof parsed === 'string') {
    throw new Error(
      `URL parse error during conversion from string: parse ${JSON.stringify(text)}: ${parsed}`,
    );
  }
  return new Url(written, parsed.scheme, parsed.host, parsed.path, parsed.query);
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
