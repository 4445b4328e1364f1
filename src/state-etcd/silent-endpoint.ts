/**
 * Tells an etcd that does not answer from one that cannot be reached. When a first request gets
 * no answer in time, the endpoints are dialled once more at the TCP level: one that accepts the
 * connection is a member that is there and silent (stopped with SIGSTOP, overloaded, behind a
 * proxy whose upstream is gone), which is not the same advice as "check that etcd runs there".
 */
import type * as net from 'node:net';
import type { ConnectionFailure } from './connection-failure.js';

/** The failure of an endpoint that accepted the connection and never answered. */
export const SILENT_MEMBER: ConnectionFailure = {
  reason: 'the connection opened, so something listens there (a member stopped or overloaded?)',
  advice: 'check that etcd is healthy (etcdctl endpoint health)',
  silent: true,
};

/**
 * Whether one of `endpoints` (`http://host:port`) accepts a TCP connection within `timeout` ms.
 * Every socket is closed before it resolves.
 */
export async function acceptsConnections(
  endpoints: readonly string[],
  timeout: number,
): Promise<boolean> {
  // Loaded here, once a request has timed out: node:net is not among a start's modules.
  const { connect } = await import('node:net');
  const dials = endpoints.map((endpoint) => dial(connect, endpoint, timeout));
  const results = await Promise.all(dials);
  return results.some(Boolean);
}

function dial(connect: typeof net.connect, endpoint: string, timeout: number): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(endpoint.includes('://') ? endpoint : `http://${endpoint}`);
  } catch {
    return Promise.resolve(false);
  }
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 2379));
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (accepted: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(accepted);
    };
    const timer = setTimeout(() => done(false), timeout);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
