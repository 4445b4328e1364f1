/**
 * A TCP server on a free loopback port that accepts connections and never answers: an etcd
 * endpoint that hangs (a stopped process, a black-holing proxy), for tests of deadlines.
 */
import { createServer, type Socket } from 'node:net';

export interface SilentServer {
  /** `http://127.0.0.1:<port>`. */
  readonly endpoint: string;
  /** `127.0.0.1:<port>`, as a state URL takes it. */
  readonly address: string;
  /** How many connections it has accepted. */
  readonly connections: number;
  close(): Promise<void>;
}

export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${String(port)}`,
    address: `127.0.0.1:${String(port)}`,
    get connections() {
      return connections;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
