// Attacks on the HTTP layer of `passmint serve` (the Node listener), over raw
// TCP on 127.0.0.1: what fetch's Request cannot even represent, and clients
// that hold a connection open by sending slowly.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

/** Writes raw bytes on a new connection; resolves with everything answered once the server closes it. */
function exchange(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received));
    socket.write(text);
  });
}

describe('attacks on the HTTP layer', () => {
  let database: TestDatabase;
  let service: Service;

  beforeAll(async () => {
    database = await ENGINES[0]!.open();
    service = await startService(database);
  });
  afterAll(async () => {
    // close() throws when the service reported an error (a 500 with a stack in the log).
    await service?.close();
    await database?.dispose();
  });

  test('TRACE (a method a fetch Request refuses) is a 501 problem on every path, not a 500 and an error log', async () => {
    for (const target of ['/v1/templates', '/wallet/v1/log', '/healthz', '/nowhere']) {
      const answer = await exchange(service.url, `TRACE ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 501 Not Implemented');
      expect(answer).toMatch(/content-type: application\/problem\+json/i);
      expect(answer).toContain('"code":"method-not-implemented"');
    }
    // The service still answers.
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
  });

  test('a client that sends its headers or its body slowly is cut off: the listener bounds both times', async () => {
    const { server } = await service.server.listen(0);
    expect(server.headersTimeout).toBe(10_000);
    expect(server.requestTimeout).toBe(60_000);
    // Headers never finished: answered 408 and closed, not held for Node's default minute.
    const answer = await exchange(service.url, 'POST /wallet/v1/log HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
  }, 30_000);
});
