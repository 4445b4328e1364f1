import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a route answers. */
export interface OpsResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** A path (`/metrics`, `/healthz`) and what answers it. */
export type OpsRoutes = Readonly<Record<string, () => OpsResponse | Promise<OpsResponse>>>;

/** A listening endpoint of `cosi run` (metrics, health). */
export interface OpsServer {
  /** `host:port` it listens on (the port chosen when `:0` was asked). */
  readonly address: string;
  close(): Promise<void>;
}

/** An address cosi run was given that it cannot listen on: said in one line, exit 2. */
export class OpsAddressError extends Error {
  readonly code = 'ops-address';

  constructor(message: string) {
    super(message);
    this.name = 'OpsAddressError';
  }
}

/**
 * `HOST:PORT` or `:PORT` (every interface, as controller-runtime's `:8080`), port 0 for any
 * free one.
 */
export function parseListenAddress(text: string, flag: string): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]*)):(\d{1,5})$/.exec(text);
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || port > 65_535) {
    throw new OpsAddressError(
      `${flag}: expected HOST:PORT or :PORT (such as 127.0.0.1:8080 or :8080), got ${JSON.stringify(text)}`,
    );
  }
  const host = (match[1] ?? '').replace(/^\[|\]$/g, '');
  return { host: host === '' ? '0.0.0.0' : host, port };
}

/**
 * Serves `routes` over HTTP on `address` (see {@link parseListenAddress}): GET and HEAD, 404
 * for any other path. A route that throws answers 500 with its message; the server goes on.
 *
 * @throws OpsAddressError when the address is malformed or cannot be listened on (in use, not
 *   this machine's).
 */
export async function startOpsServer(
  address: string,
  flag: string,
  routes: OpsRoutes,
): Promise<OpsServer> {
  const { host, port } = parseListenAddress(address, flag);
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
    const send = (answer: OpsResponse): void => {
      response.writeHead(answer.status, {
        'content-type': answer.contentType,
        'content-length': Buffer.byteLength(answer.body),
      });
      response.end(request.method === 'HEAD' ? undefined : answer.body);
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      send(text(405, 'method not allowed\n'));
      return;
    }
    if (!route) {
      send(text(404, `not found: ${path} (serving ${Object.keys(routes).join(', ')})\n`));
      return;
    }
    Promise.resolve()
      .then(route)
      .then(send, (error: unknown) =>
        send(text(500, `${error instanceof Error ? error.message : String(error)}\n`)),
      );
  });
  await listen(server, host, port, flag);
  const bound = server.address() as AddressInfo;
  const shown = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return {
    address: `${shown}:${bound.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Scrapers keep connections alive: they must not hold the shutdown.
        server.closeAllConnections();
      }),
  };
}

/** A plain-text answer. */
export function text(status: number, body: string): OpsResponse {
  return { status, contentType: 'text/plain; charset=utf-8', body };
}

function listen(server: Server, host: string, port: number, flag: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      const why =
        error.code === 'EADDRINUSE'
          ? 'the port is in use: pick another'
          : error.code === 'EADDRNOTAVAIL'
            ? 'not an address of this machine'
            : error.code === 'EACCES'
              ? 'not allowed (a port under 1024 needs privileges)'
              : error.message;
      reject(new OpsAddressError(`${flag}: cannot listen on ${host}:${port}: ${why}`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}
