/** A loopback TCP proxy to a test service whose open connections a test can cut, as a restart or an outage cuts them. */
import net from 'node:net';

export interface TTcpProxy {
  /** The loopback port that reaches the service through the proxy. */
  port: number;
  /** Cuts every open connection; new ones still go through. */
  cutConnections(): void;
  /** Stops taking connections (new ones are refused); resolves once the listener has closed. */
  close(): Promise<void>;
}

export async function startTcpProxy(host: string, port: number): Promise<TTcpProxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    cutConnections() {
      for (const socket of sockets) socket.destroy();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
