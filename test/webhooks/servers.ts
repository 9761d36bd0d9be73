import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** A node:http server on 127.0.0.1 with a random port. */
export interface TestServer {
  readonly url: string;
  /** Requests received so far. */
  readonly hits: () => number;
  readonly close: () => Promise<void>;
}

/** What a receiver does with one request; a throw answers 599 with the error. */
export type Handler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

/** Starts a receiver; `close` also drops kept-alive and hanging connections. */
export async function startServer(handler: Handler): Promise<TestServer> {
  let hits = 0;
  const server = createServer((request, response) => {
    hits++;
    Promise.resolve(handler(request, response)).catch((error: unknown) => {
      response.statusCode = 599;
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Receivers closed after each test: call once at the top of a file or a
 * `describe` (`const server = trackedServers();`), then `await server(handler)`.
 */
export function trackedServers(): (handler: Handler) => Promise<TestServer> {
  const open: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((started) => started.close()));
  });
  return async (handler) => {
    const started = await startServer(handler);
    open.push(started);
    return started;
  };
}

/** A URL on 127.0.0.1 where nobody listens any more: a receiver started and closed again. */
export async function closedUrl(): Promise<string> {
  const closed = await startServer(() => undefined);
  await closed.close();
  return closed.url;
}
