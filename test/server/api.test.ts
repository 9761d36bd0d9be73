import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readPass } from '../../src/pkpass/read.js';
import { createPassSigner } from '../../src/pkpass/signer.js';
import { png } from '../pkpass/helpers.js';
import { makePki, PASS_TYPE_IDENTIFIER, TEAM_IDENTIFIER } from '../pkpass/pki.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { openApiChecker, recordAnswers, type Answer, type AnswerCheck } from './openapi-check.js';
import { eventually, startReceiver, type Receiver } from './receiver.js';

/** A POST through node:http, which reads an early answer (a 413) while the body is still going out. */
function postRaw(url: string, key: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

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

for (const engine of ENGINES) {
  describe(`the service API on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    let receiver: Receiver;
    let check: AnswerCheck;
    const answers: Answer[] = [];

    beforeAll(async () => {
      const pki = await makePki();
      const signer = await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem });
      database = await engine.open();
      service = await startService(database, { signer, issuer: { organizationName: 'Example Club' } });
      receiver = await startReceiver();
      // Every answer these tests get through service.call is checked against the OpenAPI document at the end.
      check = await openApiChecker(service.url);
      service = recordAnswers(service, answers);
    });

    afterAll(async () => {
      await service?.close();
      await receiver?.close();
      await database?.dispose();
    });

    test('every route needs the API key: 401 with WWW-Authenticate, problem+json', async () => {
      for (const [method, path] of [
        ['GET', '/v1/templates'],
        ['POST', '/v1/webhooks'],
        ['GET', '/v1/templates/1'],
        ['GET', '/v1/events'],
      ]) {
        const response = await fetch(`${service.url}${path!}`, { method: method! });
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
        expect(response.headers.get('content-type')).toMatch(/problem\+json/);
        expect((await response.json()).code).toBe('missing-credentials');
      }
      const wrong = await service.call('GET', '/v1/templates', undefined, { authorization: 'Bearer nope' });
      expect(wrong.body.code).toBe('invalid-credentials');
    });

    test('unknown routes are 404, other methods 405 with Allow', async () => {
      expect((await service.call('GET', '/v2/templates')).body.code).toBe('not-found');
      const wrongMethod = await service.call('PATCH', '/v1/templates');
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD, POST');
      const head = await fetch(`${service.url}/v1/templates`, { method: 'HEAD', headers: { authorization: `Bearer ${service.key}` } });
      expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([200, 'application/json; charset=utf-8', '']);
    });

    test('templates: create, read through the seed GET, list in pages, change, delete', async () => {
      const created = await service.call('POST', '/v1/templates', template);
      expect(created.status).toBe(201);
      const id = created.body.id as number;
      expect(created.body).toEqual({ ...template, id });
      expect(created.headers.get('location')).toBe(`${service.url}/v1/templates/${id}`);

      const read = await service.call('GET', `/v1/templates/${id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ ...template, id });
      expect(read.headers.get('etag')).toMatch(/^"/);

      const second = await service.call('POST', '/v1/templates', { ...template, name: 'Second' });
      const first = await service.call('GET', '/v1/templates?limit=1');
      expect(first.body.items.map((item: { id: number }) => item.id)).toEqual([id]);
      const next = await service.call('GET', `/v1/templates?limit=1&after=${first.body.next}`);
      expect(next.body.items.map((item: { id: number }) => item.id)).toEqual([second.body.id]);

      const changed = await service.call('PUT', `/v1/templates/${second.body.id}`, { ...template, name: 'Renamed' });
      expect(changed.body.name).toBe('Renamed');
      expect((await service.call('DELETE', `/v1/templates/${second.body.id}`)).status).toBe(204);
      expect((await service.call('GET', `/v1/templates/${second.body.id}`)).body.code).toBe('template-not-found');
      expect((await service.call('DELETE', `/v1/templates/${second.body.id}`)).body.code).toBe('template-not-found');
    });

    test('bad input is a 4xx problem, never a 500', async () => {
      const invalid = await service.call('POST', '/v1/templates', { ...template, placeholder: ['club'] });
      expect(invalid.status).toBe(422);
      expect(invalid.body.code).toBe('invalid-template');
      expect(invalid.body.issues.map((issue: { code: string }) => issue.code)).toContain('undeclared-placeholder');
      expect((await service.call('POST', '/v1/templates', '{"name": ')).body.code).toBe('invalid-json');
      expect((await service.call('POST', '/v1/templates', '[]')).body.code).toBe('invalid-template');
      expect((await service.call('POST', '/v1/templates', 'x', { 'content-type': 'text/plain' })).status).toBe(415);
      const huge = await postRaw(`${service.url}/v1/templates`, service.key, JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }));
      expect([huge.status, JSON.parse(huge.body).code]).toEqual([413, 'body-too-large']);
      expect((await service.call('GET', '/v1/templates?limit=0')).body.code).toBe('invalid-query');
      expect((await service.call('GET', '/v1/templates?after=-1')).body.code).toBe('invalid-query');
      expect((await service.call('GET', '/v1/templates/99999999999')).status).toBe(404);
      expect((await service.call('GET', '/v1/webhooks/not-a-uuid')).body.code).toBe('webhook-not-found');
      expect((await service.call('GET', '/v1/events/00000000-0000-4000-8000-000000000000')).body.code).toBe('event-not-found');
      expect((await service.call('GET', '/v1/passes/%E0%A4%A/x')).body.code).toBe('invalid-path');
      expect((await service.call('POST', '/v1/webhooks', { url: 'ftp://example.com' })).body.code).toBe('invalid-webhook-url');
      expect((await service.call('POST', '/v1/webhooks', { url: 'http://user:pw@example.com/' })).body.code).toBe('invalid-webhook-url');
    });

    test('hostile text: NUL, lone surrogates and prototype keys are stored or refused, never a 500', async () => {
      const nul = await service.call('POST', '/v1/templates', { ...template, passType: 'pass.com.example.\u0000x' });
      expect([nul.status, nul.body.code, nul.body.issues?.[0]?.path]).toEqual([422, 'invalid-template', '/passType']);
      const { body: created } = await service.call('POST', '/v1/templates', {
        ...template,
        name: 'Nul \u0000 and \ud800 lone',
        ['__proto__']: { polluted: true },
      });
      expect(created.name).toBe('Nul \u0000 and \ud800 lone');
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      const made = await service.call('POST', `/v1/templates/${created.id}/passes`, {
        values: JSON.parse('{"club": "a\\u0000b\\ud800", "name": "x", "__proto__": {"y": 1}}'),
      });
      // Values that cannot be stored are refused, as an import's record is (test/server/values-rule.test.ts).
      expect([made.status, made.body.code, made.body.issues[0].path]).toEqual([422, 'invalid-values', '/club']);
      const serial = await service.call('POST', `/v1/templates/${created.id}/passes`, { values: { club: 'c', name: 'n' }, serialNumber: 'a\u0000b' });
      expect(serial.body.code).toBe('invalid-body');
      expect((await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/a%00b`)).body.code).toBe('invalid-path');
    });

    test('passes: create from a template with values, read, change, download signed, delete — each event delivered in order, signed', async () => {
      // A webhook first: it gets every event from now on.
      const hook = await service.call('POST', '/v1/webhooks', { url: `${receiver.url}/passes` });
      expect(hook.status).toBe(201);
      expect(hook.body.state).toBe('enabled');
      expect(hook.body.verification).toEqual({ verified: true, status: 200 });
      expect(hook.body.secret).toMatch(/^whsec_/);
      receiver.secrets.set('/passes', [hook.body.secret]);

      const { body: created } = await service.call('POST', '/v1/templates', template);
      const id = created.id as number;
      const icon = await service.call('PUT', `/v1/templates/${id}/files/icon.png`, png(29, 29));
      expect(icon.status).toBe(201);
      expect((await service.call('PUT', `/v1/templates/${id}/files/icon@2x.png`, new TextEncoder().encode('not a png'))).body.code).toBe('invalid-file');
      expect((await service.call('PUT', `/v1/templates/${id}/files/..%2Fx.png`, png(29, 29))).body.code).toBe('invalid-file');
      expect((await service.call('GET', `/v1/templates/${id}/files`)).body.items).toEqual([{ path: 'icon.png', size: png(29, 29).byteLength }]);

      const missing = await service.call('POST', `/v1/templates/${id}/passes`, { values: { club: 'Chess' } });
      expect(missing.status).toBe(422);
      expect(missing.body.code).toBe('invalid-values');
      expect(missing.body.issues.map((issue: { code: string }) => issue.code)).toEqual(['missing-value']);

      const made = await service.call('POST', `/v1/templates/${id}/passes`, { values: { club: 'Chess', name: 'Ada' }, serialNumber: 'M-1' });
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({
        passTypeIdentifier: PASS_TYPE_IDENTIFIER,
        serialNumber: 'M-1',
        templateId: id,
        version: 1,
        values: { club: 'Chess', name: 'Ada' },
      });
      expect((await service.call('POST', `/v1/templates/${id}/passes`, { values: { club: 'Chess', name: 'Ada' }, serialNumber: 'M-1' })).body.code).toBe(
        'pass-exists',
      );

      const passjson = await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/M-1/passjson`);
      expect(passjson.body).toMatchObject({
        logoText: 'Chess',
        serialNumber: 'M-1',
        passTypeIdentifier: PASS_TYPE_IDENTIFIER,
        teamIdentifier: TEAM_IDENTIFIER,
        organizationName: 'Example Club',
        webServiceURL: `${service.url}/wallet`,
      });
      // Stored as written (json, not jsonb): the pass keeps the template's key order.
      expect(Object.keys(passjson.body).slice(0, 3)).toEqual(['logoText', 'backgroundColor', 'generic']);
      expect(Object.keys((await service.call('GET', `/v1/templates/${id}`)).body)).toEqual([
        'name',
        'formatVersion',
        'passType',
        'description',
        'placeholder',
        'id',
      ]);
      const token = passjson.body.authenticationToken as string;

      const changed = await service.call('PUT', `/v1/passes/${PASS_TYPE_IDENTIFIER}/M-1/values`, { club: 'Chess', name: 'Ada Lovelace' });
      expect(changed.body.version).toBe(2);
      expect((await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/M-1/values`)).body).toEqual({ club: 'Chess', name: 'Ada Lovelace' });
      const after = (await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/M-1/passjson`)).body;
      expect(after.authenticationToken).toBe(token);
      expect(after.generic.primaryFields[0].value).toBe('Ada Lovelace');

      // The download link works without the API key (the pass's own token), and not with a wrong one.
      const link = changed.body.links.pkpass as string;
      expect(link).toBe(`${service.url}/v1/passes/${PASS_TYPE_IDENTIFIER}/M-1/pkpass?token=${token}`);
      const download = await fetch(link);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
      const bundle = await readPass(new Uint8Array(await download.arrayBuffer()));
      expect(bundle.pass).toMatchObject({ serialNumber: 'M-1', authenticationToken: token });
      expect((await fetch(`${service.url}/v1/passes/${PASS_TYPE_IDENTIFIER}/M-1/pkpass?token=wrong-token-123456`)).status).toBe(401);

      const list = await service.call('GET', '/v1/passes?limit=100');
      expect(list.body.items.map((item: { serialNumber: string }) => item.serialNumber)).toContain('M-1');

      expect((await service.call('DELETE', `/v1/templates/${id}`)).body.code).toBe('template-in-use');
      expect((await service.call('DELETE', `/v1/passes/${PASS_TYPE_IDENTIFIER}/M-1`)).status).toBe(204);
      expect((await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/M-1`)).body.code).toBe('pass-not-found');

      await eventually(() => receiver.received.filter((entry) => entry.path === '/passes').length >= 3, 10_000, 'three events');
      // At least once: a repeat (same id) would be dropped by a receiver, so count each id once.
      const events = [...new Map(receiver.received.filter((entry) => entry.path === '/passes').map((entry) => [entry.event.id, entry])).values()];
      expect(events.map((entry) => entry.event.type)).toEqual(['pass.created', 'pass.updated', 'pass.downloaded']);
      expect(events.every((entry) => entry.signatureValid)).toBe(true);
      expect(events[0]!.event.data).toEqual({ serialNumber: 'M-1', passTypeIdentifier: PASS_TYPE_IDENTIFIER });

      // Attempts are visible per registration and per event (recorded just after the receiver answered: polled).
      await expect
        .poll(async () => (await service.call('GET', `/v1/webhooks/${hook.body.id}/deliveries`)).body.items.map((item: { status: string }) => item.status), {
          timeout: 10_000,
        })
        .toEqual(['delivered', 'delivered', 'delivered']);
      const deliveries = await service.call('GET', `/v1/webhooks/${hook.body.id}/deliveries`);
      expect(deliveries.body.items[0].history).toMatchObject([{ outcome: 'received', status: 200 }]);
      const event = await service.call('GET', `/v1/events/${events[0]!.event.id}`);
      expect(event.body.event).toEqual(events[0]!.event);
      expect(event.body.deliveries).toMatchObject([{ webhookId: hook.body.id, status: 'delivered', attempts: 1 }]);
      await service.call('POST', `/v1/webhooks/${hook.body.id}/disable`);
    });

    test('webhooks: a failing receiver is retried with its attempts recorded, 410 disables it, a replay sends again, secrets rotate', async () => {
      const { body: created } = await service.call('POST', '/v1/templates', template);
      const failing = await service.call('POST', '/v1/webhooks', { url: `${receiver.url}/failing` });
      const gone = await service.call('POST', '/v1/webhooks', { url: `${receiver.url}/gone` });
      const good = await service.call('POST', '/v1/webhooks', { url: `${receiver.url}/good` });
      receiver.statusFor.set('/failing', 503);
      receiver.headersFor.set('/failing', { 'retry-after': '3600' });
      receiver.statusFor.set('/gone', 410);
      receiver.secrets.set('/good', [good.body.secret]);

      await service.call('POST', `/v1/templates/${created.id}/passes`, { values: { club: 'Go', name: 'Lee' }, serialNumber: 'W-1' });
      await eventually(async () => (await service.call('GET', `/v1/webhooks/${gone.body.id}`)).body.state === 'disabled', 10_000, 'the 410 to disable');
      expect((await service.call('GET', `/v1/webhooks/${gone.body.id}`)).body.stateReason).toBe('gone');

      await eventually(
        async () => (await service.call('GET', `/v1/webhooks/${failing.body.id}/deliveries`)).body.items[0]?.attempts === 1,
        10_000,
        'one failed attempt',
      );
      const failed = (await service.call('GET', `/v1/webhooks/${failing.body.id}/deliveries`)).body.items[0];
      expect(failed).toMatchObject({ status: 'pending', lastStatus: 503, lastError: 'HTTP 503 Service Unavailable' });
      // Retry-After: 3600 is longer than the 5 s the schedule says: honoured.
      expect(Date.parse(failed.nextAttemptAt) - Date.now()).toBeGreaterThan(3_000_000);

      // The receiver is back; a replay sends the event now.
      receiver.statusFor.delete('/failing');
      receiver.secrets.set('/failing', [failing.body.secret]);
      const replay = await service.call('POST', `/v1/events/${failed.eventId}/replay`, { webhookId: failing.body.id });
      expect(replay).toMatchObject({ status: 202, body: { queued: 1 } });
      await eventually(() => receiver.received.some((entry) => entry.path === '/failing'), 10_000, 'the replayed event');
      expect(receiver.received.find((entry) => entry.path === '/failing')?.event.id).toBe(failed.eventId);

      // A rotated secret signs what comes next.
      const rotated = await service.call('POST', `/v1/webhooks/${good.body.id}/secret`);
      expect(rotated.body.secret).not.toBe(good.body.secret);
      receiver.secrets.set('/good', [rotated.body.secret]);
      await service.call('PUT', `/v1/passes/${PASS_TYPE_IDENTIFIER}/W-1/values`, { club: 'Go', name: 'Lee Sedol' });
      await eventually(() => receiver.received.some((entry) => entry.path === '/good' && entry.event.type === 'pass.updated'), 10_000, 'pass.updated');
      expect(receiver.received.filter((entry) => entry.path === '/good').every((entry) => entry.signatureValid)).toBe(true);

      const disabled = await service.call('POST', `/v1/webhooks/${good.body.id}/disable`);
      expect(disabled.body.state).toBe('disabled');
      await service.call('POST', `/v1/webhooks/${failing.body.id}/disable`);
    });

    test('a receiver that does not answer the handshake stays pending until verified', async () => {
      const pending = await service.call('POST', '/v1/webhooks', { url: `${service.url}/nowhere` });
      expect(pending.body.state).toBe('pending');
      expect(pending.body.verification).toMatchObject({ verified: false, reason: 'unexpected-status', status: 404 });
      const listed = await service.call('GET', '/v1/webhooks?limit=100');
      expect(listed.body.items.find((item: { id: string }) => item.id === pending.body.id)?.state).toBe('pending');
    });

    test("Apple's web service runs on the SQL store: a device registers, and the registration is a webhook event", async () => {
      const hook = await service.call('POST', '/v1/webhooks', { url: `${receiver.url}/wallet` });
      receiver.secrets.set('/wallet', [hook.body.secret]);
      const { body: created } = await service.call('POST', '/v1/templates', template);
      await service.call('PUT', `/v1/templates/${created.id}/files/icon.png`, png(29, 29));
      await service.call('POST', `/v1/templates/${created.id}/passes`, { values: { club: 'Bridge', name: 'Omar' }, serialNumber: 'D-1' });
      const pass = (await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/D-1/passjson`)).body;
      const device = 'device0123456789abcdef';
      const registration = `${pass.webServiceURL}/v1/devices/${device}/registrations/${PASS_TYPE_IDENTIFIER}/D-1`;
      const pushToken = 'ab'.repeat(32);
      const register = await fetch(registration, {
        method: 'POST',
        headers: { authorization: `ApplePass ${pass.authenticationToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pushToken }),
      });
      expect(register.status).toBe(201);
      const serials = await fetch(`${pass.webServiceURL}/v1/devices/${device}/registrations/${PASS_TYPE_IDENTIFIER}`);
      expect((await serials.json()).serialNumbers).toEqual(['D-1']);
      const latest = await fetch(`${pass.webServiceURL}/v1/passes/${PASS_TYPE_IDENTIFIER}/D-1`, {
        headers: { authorization: `ApplePass ${pass.authenticationToken}` },
      });
      expect(latest.status).toBe(200);
      expect(latest.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
      expect((await fetch(registration, { method: 'POST', headers: { authorization: 'ApplePass wrong-token-123456789' }, body: '{}' })).status).toBe(401);
      await eventually(
        () => receiver.received.some((entry) => entry.path === '/wallet' && entry.event.type === 'registration.created'),
        10_000,
        'registration.created',
      );
      const event = receiver.received.find((entry) => entry.path === '/wallet' && entry.event.type === 'registration.created');
      expect(event?.event.data).toMatchObject({ serialNumber: 'D-1', passTypeIdentifier: PASS_TYPE_IDENTIFIER, deviceLibraryIdentifier: device });
    });

    test('every answer above is documented in the OpenAPI document and validates against its schemas', () => {
      expect(answers.length).toBeGreaterThan(50);
      expect(answers.map(check).filter((problem) => problem !== undefined)).toEqual([]);
    });
  });
}
