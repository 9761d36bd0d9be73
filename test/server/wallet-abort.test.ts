// A client that goes away in the middle of its body: the service's log gets
// one request entry (499, not a 5xx) and no error, on /wallet and on the API.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServer, type PassmintServer } from '../../src/server/create-server.js';
import type { LogEntry } from '../../src/server/http/log.js';
import { PASS_TYPE_IDENTIFIER } from '../pkpass/pki.js';
import { ENGINES, type TestDatabase } from './databases.js';

const template = {
  name: 'Member card',
  formatVersion: 1,
  passType: PASS_TYPE_IDENTIFIER,
  description: { backgroundColor: 'rgb(20, 40, 60)', generic: { primaryFields: [{ key: 'name', label: 'Member', value: 'Ada' }] } },
  placeholder: [],
};

/** Sends a request head and part of its body on a raw connection, then closes it; resolves when the server has let go of it. */
function cutOff(port: number, head: string, server: import('node:http').Server): Promise<void> {
  return new Promise((resolve) => {
    server.once('connection', (socket) => socket.once('close', () => setImmediate(resolve)));
    const client = connect(port, '127.0.0.1', () => {
      client.write(head);
      // Closed once the server has read the head (it answers nothing before the body is complete).
      setTimeout(() => client.destroy(), 50);
    });
    client.on('error', () => undefined);
  });
}

describe('a /wallet request cut off mid-body', () => {
  let database: TestDatabase;
  let server: PassmintServer;
  let http: import('node:http').Server;
  let port: number;
  let token: string;
  const errors: unknown[] = [];
  const log: LogEntry[] = [];

  beforeAll(async () => {
    database = await ENGINES[0]!.open();
    server = await createServer({ database: database.db, workers: false, onError: (error) => errors.push(error), log: (entry) => log.push(entry) });
    const listening = await server.listen(0);
    http = listening.server;
    port = listening.port;
    const call = async (path: string, body: unknown) =>
      (
        await fetch(`${listening.url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.firstApiKey!}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json() as Promise<{
        id: number;
        links: { pkpass: string };
      }>;
    const made = await call('/v1/templates', template);
    const pass = await call(`/v1/templates/${made.id}/passes`, { serialNumber: 'S1', values: {} });
    token = new URL(pass.links.pkpass).searchParams.get('token')!;
  });

  afterAll(async () => {
    await server.close();
    await database.dispose();
  });

  const register = (authorization: string) =>
    `POST /wallet/v1/devices/device-1/registrations/${PASS_TYPE_IDENTIFIER}/S1 HTTP/1.1\r\nHost: x\r\n${authorization}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"pushToken": "`;

  const cases: readonly (readonly [string, () => string])[] = [
    [
      'POST /v1/log (no credentials needed)',
      () => 'POST /wallet/v1/log HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"logs": ["',
    ],
    ['POST /v1/log, chunked', () => 'POST /wallet/v1/log HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"log'],
    ["a registration with the pass's token", () => register(`Authorization: ApplePass ${token}\r\n`)],
    ['a registration without credentials', () => register('')],
    [
      'an API upload with the API key',
      () => `PUT /v1/templates/1/files/icon.png HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.firstApiKey!}\r\nContent-Length: 100000\r\n\r\n\u0089PNG`,
    ],
  ];

  for (const [name, head] of cases) {
    test(`${name}: no error logged, the request recorded as 499`, async () => {
      const before = log.length;
      await cutOff(port, head(), http);
      // The handler is done once its request entry is written.
      for (let turn = 0; turn < 100 && log.length === before; turn++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(errors).toEqual([]);
      const entries = log.slice(before).filter((entry) => entry.type === 'request');
      expect(entries.map((entry) => entry['status'])).toEqual([name.endsWith('without credentials') ? 401 : 499]);
    });
  }
});
