/** Where a state lives, as `--state` names it. */
export type StateLocation =
  | { readonly kind: 'memory' }
  | {
      readonly kind: 'etcd';
      /** `http://host:port`, what an etcd client connects to. */
      readonly endpoint: string;
      /** The key prefix every key of this state goes under: `/` and the URL's path, or `/cosi`. */
      readonly prefix: string;
    };

/** The prefix of a state on etcd when the URL gives no path. */
export const DEFAULT_ETCD_PREFIX = '/cosi';

/** A `--state` value that is not a state URL; its message says what is expected. */
export class StateUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateUrlError';
  }
}

/**
 * Parses a state URL: `memory` (a fresh in-memory state, the default), or
 * `etcd://HOST:PORT[/prefix]` (a state shared on etcd, its keys under the prefix). The port is
 * required: an etcd cluster has no default one worth guessing. Several processes given the same
 * URL share one state.
 *
 * @throws StateUrlError naming what is wrong.
 */
export function parseStateUrl(text: string): StateLocation {
  if (text === 'memory' || text === 'memory://') return { kind: 'memory' };
  const expected = 'expected memory or etcd://HOST:PORT[/prefix]';
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)?.[1];
  if (scheme === undefined) {
    throw new StateUrlError(`${JSON.stringify(text)} is not a state URL: ${expected}`);
  }
  if (scheme.toLowerCase() !== 'etcd') {
    throw new StateUrlError(`unknown state scheme ${JSON.stringify(scheme)}: ${expected}`);
  }
  let url: URL;
  try {
    // The WHATWG parser treats unknown schemes as opaque; as http it checks host and port.
    url = new URL(`http://${text.slice(scheme.length + 3)}`);
  } catch {
    throw new StateUrlError(`${JSON.stringify(text)} is not a valid URL: ${expected}`);
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new StateUrlError(
      `${JSON.stringify(text)}: credentials, query and fragment are not supported: ${expected}`,
    );
  }
  if (url.port === '') {
    throw new StateUrlError(`${JSON.stringify(text)} has no port: ${expected}`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  let prefix: string;
  try {
    prefix = path === '' ? DEFAULT_ETCD_PREFIX : decodeURIComponent(path);
  } catch {
    // `%zz`, or a `%` not followed by two hex digits: decodeURIComponent throws URIError.
    throw new StateUrlError(
      `${JSON.stringify(text)}: the prefix is not valid percent-encoding (a % takes two hex digits, as %2F): ${expected}`,
    );
  }
  // A control character (`%00`, `%0A`) in a key prefix is a typo, and breaks the messages that
  // name the prefix.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(prefix)) {
    throw new StateUrlError(
      `${JSON.stringify(text)}: the prefix holds a control character: ${expected}`,
    );
  }
  return { kind: 'etcd', endpoint: `http://${url.host}`, prefix };
}

/** The URL of a location, as `parseStateUrl` reads it: for messages. */
export function formatStateLocation(location: StateLocation): string {
  return location.kind === 'memory'
    ? 'memory'
    : `etcd://${location.endpoint.replace(/^http:\/\//, '')}${location.prefix}`;
}
