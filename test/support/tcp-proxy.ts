/**
 * A TCP proxy on a free loopback port, for tests that cut a client off its server and let it
 * back: `cut()` drops every connection and refuses new ones until `restore()`; `freeze()` keeps
 * them open and passes nothing either way (a partition that drops packets, a hung server) until
 * `thaw()`.
 */
import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  /** `http://127.0.0.1:<port>`: give this to the client instead of the server's endpoint. */
  readonly endpoint: string;
  /** Drops the open connections and refuses new ones. */
  cut(): void;
  /** Accepts connections again. */
  restore(): void;
  /** Passes nothing more either way, and closes nothing: the connections go silent. */
  freeze(): void;
  /** Passes what waited, and all that follows, again. */
  thaw(): void;
  close(): Promise<void>;
}

/** A proxy to `target` (`host:port` or `http://host:port`). */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port } = new URL(target.includes('://') ? target : `tcp://${target}`);
  const sockets = new Set<Socket>();
  let open = true;
  let frozen = false;
  const pairs = new Set<readonly [Socket, Socket]>();
  const join = ([client, upstream]: readonly [Socket, Socket]): void => {
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    track(client);
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(port), hostname);
    track(upstream);
    const pair = [client, upstream] as const;
    pairs.add(pair);
    if (frozen) {
      client.pause();
    } else {
      join(pair);
    }
    client.on('close', () => {
      pairs.delete(pair);
      upstream.destroy();
    });
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const localPort = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${String(localPort)}`,
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      open = true;
    },
    freeze() {
      frozen = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    thaw() {
      frozen = false;
      for (const pair of pairs) join(pair);
    },
    async close() {
      open = false;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
