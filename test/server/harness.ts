// One service on one engine for a test file: createServer on a fresh
// database, listening on 127.0.0.1, with a helper to call its API.
import { createServer, type PassmintServer, type ServerOptions } from '../../src/server/create-server.js';
import type { TestDatabase } from './databases.js';
import { TEST_SECRET_KEY } from './test-secret-key.js';

export interface Service {
  readonly server: PassmintServer;
  readonly url: string;
  readonly key: string;
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers; bytes: Uint8Array }>;
  close(): Promise<void>;
}

/** A service on `database`, with {@link TEST_SECRET_KEY} unless `options` give another `secretKey` (or `secretKey: undefined`: none). */
export async function startService(database: TestDatabase, options: ServerOptions = {}): Promise<Service> {
  const errors: unknown[] = [];
  const server = await createServer({
    database: database.db,
    secretKey: TEST_SECRET_KEY,
    delivery: { allowPrivateNetworks: true, pollMs: 25, timeoutMs: 10_000, ...options.delivery },
    onError: (error) => errors.push(error),
    ...options,
  });
  const key = server.firstApiKey ?? (await server.addApiKey());
  const { url } = await server.listen(0);
  return {
    server,
    url,
    key,
    async call(method, path, body, headers = {}) {
      const init: RequestInit = { method, headers: { authorization: `Bearer ${key}`, ...headers } };
      if (body instanceof Uint8Array) init.body = body as Uint8Array<ArrayBuffer>;
      else if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      }
      const response = await fetch(`${url}${path}`, init);
      const bytes = new Uint8Array(await response.arrayBuffer());
      const type = response.headers.get('content-type') ?? '';
      const text = new TextDecoder().decode(bytes);
      return { status: response.status, headers: response.headers, bytes, body: type.includes('json') && text !== '' ? JSON.parse(text) : text };
    },
    async close() {
      await server.close();
      if (errors.length > 0) throw new Error(`The service reported errors: ${errors.map(String).join('; ')}`);
    },
  };
}
