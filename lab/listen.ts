import type { AddressInfo } from 'node:net';

interface Listenable {
  listen(port: number, host: string, callback: () => void): unknown;
  once(event: 'error', listener: (err: Error) => void): unknown;
  address(): AddressInfo | string | null;
}

/** Listen on an ephemeral port and return `host:port`. */
export async function listenEphemeral(server: Listenable, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return `${host}:${address.port}`;
}
