// A webhook receiver on 127.0.0.1 for the server tests: answers the
// verification handshake, checks every signature against the secrets it is
// told, and keeps what arrived (in arrival order) per path.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '../../src/webhooks/signature.js';

export interface Received {
  readonly path: string;
  readonly event: { id: string; type: string; created: string; data: Record<string, unknown> };
  readonly signatureValid: boolean;
}

export interface Receiver {
  readonly url: string;
  readonly received: Received[];
  /** Secrets by path, for checking signatures (set after registering). */
  readonly secrets: Map<string, string[]>;
  /** Status to answer per path (default 200); 'verify-only' answers the handshake and 200 otherwise. */
  readonly statusFor: Map<string, number>;
  /** Extra headers per path (Retry-After …). */
  readonly headersFor: Map<string, Record<string, string>>;
  close(): Promise<void>;
}

async function readAll(incoming: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const secrets = new Map<string, string[]>();
  const statusFor = new Map<string, number>();
  const headersFor = new Map<string, Record<string, string>>();
  const server: Server = createServer((incoming, outgoing) => {
    void (async () => {
      const body = await readAll(incoming);
      const path = incoming.url ?? '/';
      const event = JSON.parse(body) as Received['event'];
      if (event.type === 'webhook.verify') {
        // The handshake: the token back as the body.
        outgoing.writeHead(200, { 'content-type': 'text/plain' });
        outgoing.end(String(event.data['token']));
        return;
      }
      const list = secrets.get(path) ?? [];
      const header = incoming.headers['x-service-signature'];
      const signatureValid = list.length > 0 && typeof header === 'string' && (await verifySignature(body, header, list));
      const status = statusFor.get(path) ?? 200;
      if (status >= 200 && status < 300) received.push({ path, event, signatureValid });
      outgoing.writeHead(status, headersFor.get(path) ?? {});
      outgoing.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    secrets,
    statusFor,
    headersFor,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Waits until `check` holds, polling every 20 ms; fails after `ms`. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000, what = 'the condition'): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
