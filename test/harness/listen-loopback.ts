/**
 * An in-test HTTP server (a proxy in front of the reference deployment, a stand-in target) put on
 * a free loopback port: tests send traffic only to loopback. `close` drops kept-alive sockets
 * first, or `server.close` would wait for the client's idle connections and the test would hang.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  url: string;
  close: () => Promise<void>;
}

export async function listenLoopback(server: Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
