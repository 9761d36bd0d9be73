// Hostile requests over real HTTP (node:http through the adapter, as the README
// serves it): raw request lines and a flood of a body reach the handler as
// Node delivers them, and each gets a documented status — never 500.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serve, type Served } from '../http/serve.js';
import { applePass, passTypeIdentifier, registrationPath, serialNumber, walletFixture } from './fixtures.js';

/** Sends raw bytes on a fresh connection; resolves with the status line's code. */
function raw(port: number, text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    socket.on('error', reject);
  });
}

describe('the wallet handler behind node:http', () => {
  let served: Served;
  const errors: unknown[] = [];
  beforeAll(async () => {
    served = await serve(walletFixture({ maxBodyBytes: 4096, onError: (error) => void errors.push(error) }).handler);
  });
  afterAll(() => served.close());

  test('raw request lines with odd percent-encoding, dot segments and empty segments get documented statuses', async () => {
    const cases: [string, number][] = [
      [`GET /v1/passes/${passTypeIdentifier}/%C0%AF HTTP/1.1`, 400],
      [`GET /v1/passes/${passTypeIdentifier}/a%00b HTTP/1.1`, 400],
      [`GET /v1/passes/${passTypeIdentifier}/%zz HTTP/1.1`, 400],
      [`GET /v1/passes/${passTypeIdentifier}/${serialNumber}/../../x HTTP/1.1`, 404],
      [`GET /v1/passes//${serialNumber} HTTP/1.1`, 404],
      [`GET /v1/passes/${passTypeIdentifier}/%2e%2e HTTP/1.1`, 404],
      [`GET /v1/devices/x/registrations/${passTypeIdentifier}?passesUpdatedSince=%ff%fe HTTP/1.1`, 204],
      [`BREW /v1/log HTTP/1.1`, 400],
      [`PATCH /v1/log HTTP/1.1`, 405],
      [`GET /v1/passes/${passTypeIdentifier}/${serialNumber}?x=%zz HTTP/1.1`, 401],
    ];
    for (const [line, status] of cases) {
      expect([line, await raw(served.port, `${line}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)]).toEqual([line, status]);
    }
    expect(errors).toEqual([]);
  });

  test('a 10 MB body, declared or chunked, is answered 413 and never read whole; bad JSON and a bad push token are 400', async () => {
    const url = `${served.origin}${registrationPath}`;
    const flood = new Uint8Array(10 * 1024 * 1024).fill(0x20);
    expect((await fetch(url, { method: 'POST', headers: applePass(), body: flood })).status).toBe(413);
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 65_536;
        if (pulled > 10 * 1024 * 1024) controller.close();
        else controller.enqueue(new Uint8Array(65_536).fill(0x20));
      },
    });
    const chunked = await fetch(url, { method: 'POST', headers: applePass(), body: stream, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
    expect((await fetch(url, { method: 'POST', headers: applePass(), body: '{"pushToken":' })).status).toBe(400);
    const bad = await fetch(url, { method: 'POST', headers: applePass(), body: '{"pushToken":"<script>"}' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('invalid-push-token');
    expect(errors).toEqual([]);
  });
});
