// Hostile requests against the service over real HTTP on both engines: each
// gets a typed problem (never a 500, a crash or a hang) and changes nothing.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PASS_TYPE_IDENTIFIER } from '../pkpass/pki.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

const template = {
  name: 'Member card',
  formatVersion: 1,
  passType: PASS_TYPE_IDENTIFIER,
  description: {
    logoText: '${club}',
    backgroundColor: 'rgb(20, 40, 60)',
    generic: { primaryFields: [{ key: 'name', label: 'Member', value: '${name}' }] },
  },
  placeholder: ['club', 'name'],
};

const values = { club: 'Chess', name: 'Ada' };

/**
 * `length` CJK characters (3 bytes of UTF-8 each) from a fixed pseudo-random
 * sequence: text PostgreSQL cannot compress, so index keys keep their size.
 */
function incompressible(length: number, seed: number): string {
  let state = seed;
  let text = '';
  for (let index = 0; index < length; index++) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    text += String.fromCodePoint(0x4e00 + (state % 20_000));
  }
  return text;
}

/**
 * Writes raw HTTP/1.1 to the service on one connection and resolves with
 * every status line it answers, once the connection closes (or the last
 * expected answer is complete).
 */
function statusesOnOneConnection(url: string, requests: readonly (string | Uint8Array)[], expected: number): Promise<string[]> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    const statuses = (): string[] => [...received.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((match) => match[1]!);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (statuses().length >= expected && lastAnswerComplete(received)) socket.end();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(statuses()));
    for (const part of requests) socket.write(part);
  });
}

/** Whether the last answer in `received` is complete: its chunked body's zero-length chunk, or as many bytes as its Content-Length. */
function lastAnswerComplete(received: string): boolean {
  const start = received.lastIndexOf('HTTP/1.1 ');
  const headEnd = received.indexOf('\r\n\r\n', start);
  if (start === -1 || headEnd === -1) return false;
  const length = /^content-length: *(\d+)/im.exec(received.slice(start, headEnd));
  return length === null ? received.endsWith('\r\n0\r\n\r\n') : received.length - (headEnd + 4) >= Number(length[1]);
}

for (const engine of ENGINES) {
  describe(`hostile requests to the service on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    let templateId: number;

    beforeAll(async () => {
      database = await engine.open();
      // allowPrivateNetworks: the transport without the private-address guard, as the harness always runs it.
      service = await startService(database, { delivery: { allowPrivateNetworks: true, timeoutMs: 5_000 } });
      templateId = (await service.call('POST', '/v1/templates', template)).body.id as number;
    });

    afterAll(async () => {
      // close() throws when the service reported an error behind a 500.
      await service?.close();
      await database?.dispose();
    });

    test('a webhook URL whose host does not resolve is answered (not verified); the process survives the failed lookup', async () => {
      // Before the fix, Node's lookup callback read `addresses[0]` of `undefined`: an uncaught TypeError, the process down.
      const created = await service.call('POST', '/v1/webhooks', { url: 'http://passmint-hostile.invalid/hook' });
      expect(created.status).toBe(201);
      expect(created.body.state).toBe('pending');
      // A failed connection, not a timeout: before the fix the lookup never called back.
      expect(created.body.verification).toMatchObject({ verified: false, reason: 'network-error' });
      const again = await service.call('POST', `/v1/webhooks/${created.body.id as string}/verify`);
      expect([again.status, again.body.verification.reason]).toEqual([200, 'network-error']);
    });

    test('a template whose passType cannot key a pass is refused with 422 at /passType, and takes no id', async () => {
      // 3000 incompressible characters: 9000 bytes, past every btree key limit; before the fix it was stored and every pass made from it was a 500.
      const before = (await service.call('GET', '/v1/templates?limit=100')).body.items.length as number;
      const refused = await service.call('POST', '/v1/templates', { ...template, passType: `pass.${incompressible(3000, 1)}` });
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('invalid-template');
      expect(refused.body.issues).toEqual([expect.objectContaining({ path: '/passType' })]);
      const changed = await service.call('PUT', `/v1/templates/${templateId}`, { ...template, passType: `pass.${'a'.repeat(252)}` });
      expect([changed.status, changed.body.code]).toEqual([422, 'invalid-template']);
      expect((await service.call('GET', '/v1/templates?limit=100')).body.items.length).toBe(before);
      expect((await service.call('GET', `/v1/templates/${templateId}`)).body.passType).toBe(PASS_TYPE_IDENTIFIER);
    });

    test('the longest identifiers the wallet accepts fit the registration key; one longer is a 400, not a 500', async () => {
      const register = async (passType: string, serialNumber: string, token: string, device: string) => {
        const path = `/wallet/v1/devices/${encodeURIComponent(device)}/registrations/${encodeURIComponent(passType)}/${encodeURIComponent(serialNumber)}`;
        const response = await fetch(`${service.url}${path}`, {
          method: 'POST',
          headers: { authorization: `ApplePass ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ pushToken: 'ab'.repeat(32) }),
        });
        return { status: response.status, code: response.status >= 400 ? ((await response.json()).code as string) : undefined };
      };
      const passFor = async (id: number, serialNumber: string) => {
        const pass = await service.call('POST', `/v1/templates/${id}/passes`, { serialNumber, values });
        expect(pass.status).toBe(201);
        return new URL(pass.body.links.pkpass as string).searchParams.get('token')!;
      };

      // Refused before the store. Before the fix up to 1024 characters reached it: a 640-character device (1920 bytes)
      // beside a 256-character serial passed PostgreSQL's 2704-byte key limit — a 500, the device never registered.
      const serialNumber = incompressible(256, 3);
      const token = await passFor(templateId, serialNumber);
      for (const length of [257, 640]) {
        expect(await register(PASS_TYPE_IDENTIFIER, serialNumber, token, incompressible(length, 4))).toEqual({ status: 400, code: 'invalid-path' });
      }

      // The worst case still accepted: pass type, serial and device each at the limit, each 3 bytes a character.
      const passType = `pass.${incompressible(251, 2)}`;
      const made = await service.call('POST', '/v1/templates', { ...template, passType });
      expect(made.status).toBe(201);
      const longToken = await passFor(made.body.id as number, serialNumber);
      expect(await register(passType, serialNumber, longToken, incompressible(256, 5))).toEqual({ status: 201, code: undefined });
      const registrations = await database.db.query<{ n: number }>('select count(*)::int as n from passmint_wallet_registrations');
      expect(registrations[0]!.n).toBe(1);
    });

    test('values that would render a pass over a million characters are a 422 before rendering; nothing is stored', async () => {
      // 7 KB of template and 10 KB of value would be 10 MB of pass (at 100 KB, a gigabyte: before the fix a RangeError, a 500).
      const made = await service.call('POST', '/v1/templates', { ...template, description: { ...template.description, logoText: '${club}'.repeat(1000) } });
      expect(made.status).toBe(201);
      const passes = `/v1/templates/${made.body.id as number}/passes`;
      const kept = await service.call('POST', passes, { serialNumber: 'BOMB-1', values });
      expect(kept.status).toBe(201);
      const before = await service.call('GET', `/v1/passes?templateId=${made.body.id as number}`);
      const events = await service.call('GET', '/v1/events?limit=100');
      for (const size of [10_000, 100_000]) {
        const refused = await service.call('POST', passes, { values: { ...values, club: 'x'.repeat(size) } });
        expect([refused.status, refused.body.code]).toEqual([422, 'invalid-values']);
        const changed = await service.call('PUT', `/v1/passes/${PASS_TYPE_IDENTIFIER}/BOMB-1/values`, { ...values, club: 'x'.repeat(size) });
        expect([changed.status, changed.body.code]).toEqual([422, 'invalid-values']);
      }
      // One value used in 20,000 fields is measured too, whatever its type.
      const fields = Array.from({ length: 20_000 }, (_, index) => ({ key: `k${index}`, value: '${name}' }));
      const wide = await service.call('POST', '/v1/templates', { ...template, description: { ...template.description, generic: { primaryFields: fields } } });
      const refused = await service.call('POST', `/v1/templates/${wide.body.id as number}/passes`, { values: { ...values, name: 'x'.repeat(50_000) } });
      expect([refused.status, refused.body.code]).toEqual([422, 'invalid-values']);
      expect((await service.call('GET', `/v1/passes?templateId=${made.body.id as number}`)).body).toEqual(before.body);
      expect((await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/BOMB-1/values`)).body).toEqual(values);
      expect((await service.call('GET', '/v1/events?limit=100')).body.items).toEqual(events.body.items);
    });

    test('after a 413 the connection stays usable: the refused body is drained, the next request answered', async () => {
      const key = `Authorization: Bearer ${service.key}\r\nHost: x\r\nContent-Type: application/json\r\n`;
      const body = JSON.stringify({ values: { club: 'x'.repeat(1_200_000) } });
      const next = `GET /v1/templates?limit=1 HTTP/1.1\r\n${key}\r\n`;
      // Refused on its Content-Length, before a byte is read (before the fix: a reset instead of the 200).
      const declared = `POST /v1/templates/${templateId}/passes HTTP/1.1\r\n${key}Content-Length: ${body.length}\r\n\r\n`;
      expect(await statusesOnOneConnection(service.url, [declared, body, next], 2)).toEqual(['413', '200']);
      // Chunked: refused once the streamed bytes pass the limit, part of the body already read.
      const chunked = `POST /v1/templates/${templateId}/passes HTTP/1.1\r\n${key}Transfer-Encoding: chunked\r\n\r\n`;
      const chunk = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
      expect(await statusesOnOneConnection(service.url, [chunked, chunk, next], 2)).toEqual(['413', '200']);
    });

    test('a path over 8192 characters is 414 uri-too-long on every route, as on the seed GETs and the wallet', async () => {
      // Before the fix the API's routes answered 404 not-found ("No such route") for a route that exists.
      const long = encodeURIComponent(incompressible(1000, 6));
      for (const [method, path] of [
        ['PUT', `/v1/templates/${templateId}/files/${long}.png`],
        ['GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/${long}`],
        ['GET', `/v1/templates/${templateId}/files/${'a/'.repeat(4100)}x.png`],
        ['GET', `/wallet/v1/passes/${PASS_TYPE_IDENTIFIER}/${long}`],
      ] as const) {
        const response = await service.call(method, path, method === 'PUT' ? new Uint8Array([1]) : undefined);
        expect([path.slice(0, 30), response.status, response.body.code]).toEqual([path.slice(0, 30), 414, 'uri-too-long']);
        expect(response.headers.get('content-type')).toBe('application/problem+json');
      }
    });

    test('bodies nested 100,000 levels deep under keys nobody reads are a 422, not a stack overflow; nothing is stored', async () => {
      // Before the fix: stored as given, then serialized recursively — RangeError, a 500.
      const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
      const body = JSON.stringify(template);
      const before = await service.call('GET', '/v1/templates?limit=100');
      const created = await service.call('POST', '/v1/templates', body.replace('"name"', `"extra":${deep},"name"`));
      expect([created.status, created.body.code]).toEqual([422, 'invalid-template']);
      const changed = await service.call('PUT', `/v1/templates/${templateId}`, body.replace('"name"', `"extra":${deep},"name"`));
      expect([changed.status, changed.body.code]).toEqual([422, 'invalid-template']);
      expect((await service.call('GET', '/v1/templates?limit=100')).body).toEqual(before.body);

      const passes = `/v1/templates/${templateId}/passes`;
      const made = await service.call('POST', passes, { serialNumber: 'DEEP-1', values });
      expect(made.status).toBe(201);
      for (const extra of [deep, `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`]) {
        const refused = await service.call('POST', passes, `{"values":{"club":"c","name":"n","extra":${extra}}}`);
        expect([refused.status, refused.body.code, refused.body.issues[0].code]).toEqual([422, 'invalid-values', 'invalid-value']);
        const update = await service.call('PUT', `/v1/passes/${PASS_TYPE_IDENTIFIER}/DEEP-1/values`, `{"club":"c","name":"n","extra":${extra}}`);
        expect([update.status, update.body.code]).toEqual([422, 'invalid-values']);
      }
      expect((await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/DEEP-1/values`)).body).toEqual(values);
      // As deep as the renderer allows still works: 64 levels below the value's key.
      const nested = JSON.parse(`${'['.repeat(63)}"x"${']'.repeat(63)}`) as unknown;
      expect((await service.call('POST', passes, { values: { ...values, extra: [nested] } })).status).toBe(201);
    });

    test('a body with 120,000 issues is answered with the first 100 and their count, not a 17 MB problem', async () => {
      // Before the fix every issue was listed: 180 KB of empty fields came back as 17 MB (96 times the request).
      const body = JSON.stringify({
        ...template,
        description: { ...template.description, generic: { primaryFields: Array.from({ length: 60_000 }, () => ({})) } },
      });
      const refused = await service.call('POST', '/v1/templates', body);
      expect([refused.status, refused.body.code, refused.body.issues.length]).toEqual([422, 'invalid-template', 100]);
      expect(refused.body.detail).toMatch(/^The template has errors\. \(\d{6} issues; the first 100 are listed\)$/);
      expect(refused.bytes.length).toBeLessThan(body.length);
      // A short list is listed whole, its detail unchanged.
      const one = await service.call('POST', '/v1/templates', { ...template, passType: 'com.example' });
      expect([one.body.detail, one.body.issues.length]).toEqual(['The template has errors.', 1]);
    });
  });
}
