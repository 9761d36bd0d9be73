// Attacks on the HTTP layer of `passmint serve` (the Node listener), over raw
// TCP on 127.0.0.1: what fetch's Request cannot even represent, and clients
// that hold a connection open by sending slowly.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PASS_TYPE_IDENTIFIER } from '../pkpass/pki.js';
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

  test("values changed through another Host (an internal name, or a forged one) keep the pass's webServiceURL when the service has no public URL", async () => {
    const template = {
      name: 'Member card',
      formatVersion: 1,
      passType: PASS_TYPE_IDENTIFIER,
      description: { backgroundColor: 'rgb(20, 40, 60)', generic: { primaryFields: [{ key: 'name', label: 'Member', value: '${name}' }] } },
      placeholder: ['name'],
    };
    const id = (await service.call('POST', '/v1/templates', template)).body.id as number;
    expect((await service.call('POST', `/v1/templates/${id}/passes`, { values: { name: 'Ada' }, serialNumber: 'H-1' })).status).toBe(201);
    const passjson = async (): Promise<{ webServiceURL: string }> =>
      (await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/H-1/passjson`)).body as { webServiceURL: string };
    const before = await passjson();
    const body = JSON.stringify({ name: 'Grace' });
    const answer = await exchange(
      service.url,
      `PUT /v1/passes/${PASS_TYPE_IDENTIFIER}/H-1/values HTTP/1.1\r\nHost: passmint.internal:8080\r\nAuthorization: Bearer ${service.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(answer.split('\r\n')[0], answer.slice(-400)).toBe('HTTP/1.1 200 OK');
    const after = await passjson();
    expect(after).toMatchObject({ webServiceURL: before.webServiceURL });
    expect(after.webServiceURL.startsWith(service.url)).toBe(true);
  });
});
