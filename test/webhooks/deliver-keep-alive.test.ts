import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { deliver } from '../../src/webhooks/deliver.js';

describe("deliver and the receiver's connection", () => {
  let server: Server | undefined;
  afterEach(async () => {
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
  });

  const receiver = async (answer: string) => {
    let connections = 0;
    server = createServer((incoming, outgoing) => {
      incoming.resume();
      incoming.on('end', () => {
        outgoing.writeHead(200, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(answer) });
        outgoing.end(answer);
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, connections: () => connections };
  };

  test('deliveries one after another reuse one keep-alive connection, whether the answer has a body or not', async () => {
    for (const answer of ['', 'ok, thanks']) {
      const { url, connections } = await receiver(answer);
      for (let index = 0; index < 3; index++) {
        const result = await deliver(
          url,
          { body: '{"type":"pass.created"}', headers: { 'Content-Type': 'application/json', 'X-Service': 'event', 'X-Service-Signature': 'sha1=0' } },
          { allowPrivateNetworks: true },
        );
        expect(result).toMatchObject({ ok: true, outcome: 'received', status: 200 });
        // The body is read in the background: let it finish before the next delivery takes a connection.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(connections()).toBe(1);
      server!.closeAllConnections();
      await new Promise((resolve) => server!.close(resolve));
      server = undefined;
    }
  });
});
