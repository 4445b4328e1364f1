/**
 * Go's `url.ParseRequestURI`: an absolute URI (`https://host:8443/path?q`, `mailto:x`) or an
 * absolute path (`/path`), without a fragment of its own (a `#` is part of the path). CEL's
 * `url()` and `isURL()` read URLs with it, and the API server checks a CRD's `format: uri` with
 * it. Errors are worded as Go words them after `parse "<text>": `.
 */

/** The parts of a request URI. */
export interface RequestUri {
  readonly scheme: string;
  /** `host:port`, `[v6]:port`, or empty; without its user information. */
  readonly host: string;
  readonly path: string;
  readonly query: string;
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s;
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
const HOST_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=%]*$/;
/** `validUserinfo`: unreserved characters, sub-delimiters, `:`, `%` and `@`. */
const USERINFO_CHARS = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

/** Why `url.ParseRequestURI` refuses `text`, or undefined when it parses. */
export function requestUriError(text: string): string | undefined {
  const parsed = parseRequestUri(text);
  return typeof parsed === 'string' ? parsed : undefined;
}

/** `text` parsed as `url.ParseRequestURI` parses it, or Go's reason why it does not. */
export function parseRequestUri(text: string): RequestUri | string {
  if (text === '') return 'empty url';
  if (hasControlCharacter(text)) return 'invalid control character in URL';
  let rest = text;
  let scheme = '';
  const match = SCHEME.exec(text);
  if (match !== null) {
    scheme = (match[1] as string).toLowerCase();
    rest = match[2] as string;
  } else if (!text.startsWith('/')) {
    return 'invalid URI for request';
  }
  let query = '';
  const mark = rest.indexOf('?');
  if (mark !== -1) {
    query = rest.slice(mark + 1);
    rest = rest.slice(0, mark);
  }
  // An opaque URI (`mailto:x`): no authority, no path.
  if (scheme !== '' && !rest.startsWith('/')) return { scheme, host: '', path: '', query };
  let host = '';
  if (rest.startsWith('//')) {
    const end = rest.indexOf('/', 2);
    const authority = end === -1 ? rest.slice(2) : rest.slice(2, end);
    rest = end === -1 ? '' : rest.slice(end);
    const at = authority.lastIndexOf('@');
    if (at !== -1) {
      const userinfo = authority.slice(0, at);
      if (!USERINFO_CHARS.test(userinfo)) return 'net/url: invalid userinfo';
      if (BAD_ESCAPE.test(userinfo)) return 'invalid URL escape';
    }
    host = authority.slice(at + 1);
    const hostError = checkHost(host);
    if (hostError !== undefined) return hostError;
  }
  if (BAD_ESCAPE.test(rest)) return 'invalid URL escape';
  return { scheme, host, path: rest, query };
}

/** Go refuses ASCII control characters anywhere in a URL (spaces are let through). */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function checkHost(host: string): string | undefined {
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close === -1) return "missing ']' in host";
    const after = host.slice(close + 1);
    if (after !== '' && !/^:[0-9]*$/.test(after)) {
      return `invalid port ${JSON.stringify(after)} after host`;
    }
    return undefined;
  }
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && !/^[0-9]*$/.test(host.slice(colon + 1))) {
    return `invalid port ${JSON.stringify(host.slice(colon))} after host`;
  }
  const name = colon === -1 ? host : host.slice(0, colon);
  if (!HOST_CHARS.test(name) || BAD_ESCAPE.test(name)) return 'invalid character in host name';
  return undefined;
}
