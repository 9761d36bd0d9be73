// POST /v1/events/{id}/replay takes an optional body: none at all (curl -X POST
// without -d sends an empty chunked body, no Content-Length) replays to every
// enabled registration, as an empty JSON object does.
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

let database: TestDatabase;
let service: Service;

beforeAll(async () => {
  database = await ENGINES[0]!.open();
  service = await startService(database);
});
afterAll(async () => {
  await service.close();
  await database.dispose();
});

function bareReplay(eventId: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(`${service.url}/v1/events/${eventId}/replay`, { method: 'POST', headers: { authorization: `Bearer ${service.key}` } }, (response) => {
      let text = '';
      response
        .setEncoding('utf8')
        .on('data', (chunk: string) => (text += chunk))
        .on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** The request as curl -X POST sends it without -d: neither Content-Length nor Transfer-Encoding. */
function curlStyleReplay(eventId: string): Promise<string> {
  const { hostname, port } = new URL(service.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST /v1/events/${eventId}/replay HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${service.key}\r\nConnection: close\r\n\r\n`,
      );
    });
    let text = '';
    socket
      .setEncoding('utf8')
      .on('data', (chunk: string) => (text += chunk))
      .on('end', () => resolve(text))
      .on('error', reject);
  });
}

test('a replay with no body, or an empty chunked one, or an empty chunked one, is 202; a body that is not JSON is still 415/400', async () => {
  const template = {
    name: 'T',
    formatVersion: 1,
    passType: 'pass.com.example.replay',
    description: { generic: { primaryFields: [{ key: 'n', value: '${n}' }] } },
    placeholder: ['n'],
  };
  const { body: created } = await service.call('POST', '/v1/templates', template);
  await service.call('POST', `/v1/templates/${created.id}/passes`, { values: { n: 'x' } });
  const events = await service.call('GET', '/v1/events?limit=1');
  const eventId: string = events.body.items[0].id;

  const empty = await bareReplay(eventId);
  expect(empty.status).toBe(202);
  expect(JSON.parse(empty.text)).toMatchObject({ queued: 0 });
  expect((await curlStyleReplay(eventId)).split('\r\n')[0]).toBe('HTTP/1.1 202 Accepted');
  expect((await bareReplay(eventId, 'not json')).status).toBe(400);
});
