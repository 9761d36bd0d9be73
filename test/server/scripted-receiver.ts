// A webhook receiver whose answers a test scripts per path: answer after a
// delay, or hang (never answer, until closed); the registration handshake is
// answered at once. Keeps the event ids that
// arrived per path, and how many requests are open.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedReceiver {
  readonly url: string;
  /** Event ids per path, in arrival order (every POST, answered or not). */
  readonly arrived: Map<string, string[]>;
  /** Requests left hanging and still open. */
  hanging(): number;
  close(): Promise<void>;
}

/** `behaviour(path)`: 'hang', or how many ms to wait before answering 200. */
export async function startScriptedReceiver(behaviour: (path: string) => 'hang' | number): Promise<ScriptedReceiver> {
  const arrived = new Map<string, string[]>();
  const waiting = new Set<ServerResponse>();
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const path = incoming.url ?? '/';
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; type: string; data: { token?: string } };
      if (event.type === 'webhook.verify') {
        outgoing.writeHead(200, { 'content-type': 'text/plain' }).end(String(event.data.token)); // the registration handshake
        return;
      }
      arrived.set(path, [...(arrived.get(path) ?? []), event.id]);
      const how = behaviour(path);
      if (how === 'hang') {
        waiting.add(outgoing);
        outgoing.on('close', () => waiting.delete(outgoing));
        return;
      }
      setTimeout(() => outgoing.writeHead(200).end(), how);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrived,
    hanging: () => waiting.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
