/**
 * A TCP proxy on a loopback port in front of a test service, that can play the service's connections
 * being cut (`cutConnections()`, as a restart cuts them) or the service going away and coming back
 * (`down()` cuts them and refuses new ones, as a stopped server's port does; `up()` accepts again on
 * the same port). Tests and `npm run faults` reach PostgreSQL and Redis through one, so a fault never
 * touches the machine's servers, which other test runs share.
 */
import net from 'node:net';

export interface TTcpProxy {
  /** The loopback port clients connect to. */
  port: number;
  /** Whether connections are accepted now. */
  isUp(): boolean;
  /** Cuts every open connection; new ones still go through. */
  cutConnections(): void;
  /** Cuts every open connection and refuses new ones until `up()`. */
  down(): Promise<void>;
  /** Accepts connections again, on the same port. */
  up(): Promise<void>;
  /** Connections cut so far. */
  cutCount(): number;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TTcpProxy> {
  const sockets = new Set<net.Socket>();
  let cut = 0;
  let server: net.Server | undefined;
  let port = 0;

  const listen = async (): Promise<void> => {
    const next = net.createServer((client) => {
      const upstream = net.connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {});
      }
      // Either side ending or failing ends the other: a client never waits on a half-open pair.
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        next.off('error', reject);
        resolve();
      });
    });
    port = (next.address() as net.AddressInfo).port;
    server = next;
  };

  const cutConnections = (): void => {
    for (const socket of sockets) {
      socket.destroy();
      cut++;
    }
    sockets.clear();
  };

  const stop = async (): Promise<void> => {
    const current = server;
    server = undefined;
    const closed = current ? new Promise<void>((resolve) => current.close(() => resolve())) : Promise.resolve();
    cutConnections();
    await closed;
  };

  await listen();
  return {
    port,
    isUp: () => server !== undefined,
    cutConnections,
    down: stop,
    async up() {
      if (!server) await listen();
    },
    // Each connection is a pair of sockets (client and upstream).
    cutCount: () => Math.floor(cut / 2),
    close: stop,
  };
}
