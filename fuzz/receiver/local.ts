/**
 * The receiver fuzz against a receiver served in this process (the example receiver, the zoo of
 * faulty receivers): listen on a loopback port, fuzz it, always close it.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type ReceiverFuzzOptions,
  type ReceiverFuzzResult,
  runReceiverFuzz,
} from './run-receiver-fuzz.ts';

export function fuzzLocalReceiver(
  server: Server,
  options: Omit<ReceiverFuzzOptions, 'url'>,
): Promise<ReceiverFuzzResult> {
  return withLocalReceiver(server, (url) =>
    runReceiverFuzz({ rate: Number.POSITIVE_INFINITY, ...options, url }),
  );
}

/** Serves `server` on a loopback port for `fn`, given its webhook URL, and always closes it. */
export async function withLocalReceiver<T>(
  server: Server,
  fn: (url: string) => Promise<T>,
): Promise<T> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await fn(`http://127.0.0.1:${port}/webhook`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
