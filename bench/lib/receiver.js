// A receiver of webhook deliveries for the benches, on 127.0.0.1: it answers
// the registration's handshake (webhook.verify) at once with its token, and
// each event with 200 after `delayMs`.

import { createServer } from 'node:http';

/**
 * Starts a receiver; `onEvent(event)` hears each event (not the handshake) as it arrives.
 *
 * @param {{ delayMs?: number, onEvent?: (event: any) => void }} [options]
 */
export async function startReceiver({ delayMs = 0, onEvent } = {}) {
  let received = 0;
  const server = createServer((incoming, outgoing) => {
    const chunks = [];
    incoming.on('data', (chunk) => chunks.push(chunk));
    incoming.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (event.type === 'webhook.verify') {
        outgoing.writeHead(200, { 'content-type': 'text/plain' });
        outgoing.end(event.data.token);
        return;
      }
      received++;
      onEvent?.(event);
      const answer = () => {
        outgoing.writeHead(200, { 'content-length': 0 });
        outgoing.end();
      };
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    /** How many events have arrived. */
    count: () => received,
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  };
}
