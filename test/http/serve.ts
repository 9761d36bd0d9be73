import { getRequestListener } from '@hono/node-server';
import { createServer, type ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A handler running behind node:http on 127.0.0.1, as the README shows it. */
export interface Served {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly origin: string;
  readonly port: number;
  close(): Promise<void>;
}

export async function serve(handler: (request: Request) => Promise<Response>, options: ServerOptions = {}): Promise<Served> {
  const server = createServer(options, getRequestListener(handler));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
