// Pushes go through the durable queue: a change of values queues one push per
// device token in the change's transaction; the worker sends them to APNs
// (E's HTTP/2 TLS stand-in, following Apple's protocol) and a token APNs calls
// gone loses its registrations, reported as registration.deleted.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApnsClient, type ApnsClient } from '../../src/apns/client.js';
import { apnsPki, PASS_TYPE_IDENTIFIER } from '../apns/pki.js';
import { startApnsStandIn, type StandIn } from '../apns/stand-in.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { eventually, startReceiver, type Receiver } from './receiver.js';

const goneToken = 'dd'.repeat(32);
const busyToken = 'ee'.repeat(32);

for (const engine of ENGINES) {
  describe(`pushes on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    let receiver: Receiver;
    let standIn: StandIn;
    let apns: ApnsClient;

    beforeAll(async () => {
      const pki = apnsPki();
      standIn = await startApnsStandIn(pki, {
        answer: (push) =>
          push.pushToken === goneToken
            ? { status: 410, reason: 'Unregistered' }
            : push.pushToken === busyToken
              ? { status: 429, reason: 'TooManyRequests' }
              : { status: 200 },
      });
      apns = createApnsClient({ certificate: { cert: pki.passCertPem, key: pki.passKeyPem }, origin: standIn.origin, ca: pki.caPem });
      database = await engine.open();
      receiver = await startReceiver();
      service = await startService(database, { apns, issuer: { teamIdentifier: 'A93A5CM278', organizationName: 'Example' } });
    });

    afterAll(async () => {
      await service?.close();
      await apns?.close();
      await standIn?.close();
      await receiver?.close();
      await database?.dispose();
    });

    test('a change pushes once per device token; 410 removes the registration and tells the webhooks; 429 is retried later', async () => {
      const hook = await service.call('POST', '/v1/webhooks', { url: `${receiver.url}/pushes` });
      receiver.secrets.set('/pushes', [hook.body.secret]);
      const { body: template } = await service.call('POST', '/v1/templates', {
        name: 'Card',
        formatVersion: 1,
        passType: PASS_TYPE_IDENTIFIER,
        description: { generic: { primaryFields: [{ key: 'n', value: '${n}' }] } },
        placeholder: ['n'],
      });
      await service.call('POST', `/v1/templates/${template.id}/passes`, { values: { n: 'one' }, serialNumber: 'P-1' });
      const pass = (await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/P-1/passjson`)).body;
      const register = async (device: string, pushToken: string): Promise<number> =>
        (
          await fetch(`${pass.webServiceURL}/v1/devices/${device}/registrations/${PASS_TYPE_IDENTIFIER}/P-1`, {
            method: 'POST',
            headers: { authorization: `ApplePass ${pass.authenticationToken}`, 'content-type': 'application/json' },
            body: JSON.stringify({ pushToken }),
          })
        ).status;
      const goodToken = 'cc'.repeat(32);
      expect(await register('device-a', goodToken)).toBe(201);
      expect(await register('device-b', goodToken)).toBe(201); // one token on two devices: one push
      expect(await register('device-c', goneToken)).toBe(201);
      expect(await register('device-d', busyToken)).toBe(201);

      await service.call('PUT', `/v1/passes/${PASS_TYPE_IDENTIFIER}/P-1/values`, { n: 'two' });
      await eventually(() => standIn.pushes.length >= 3, 10_000, 'three pushes');
      expect(standIn.pushes.map((push) => push.pushToken).sort()).toEqual([goodToken, goneToken, busyToken].sort());
      expect(standIn.pushes.every((push) => push.headers['apns-topic'] === PASS_TYPE_IDENTIFIER && push.body === '{}')).toBe(true);

      // The gone token's registration is removed and reported.
      await eventually(
        () => receiver.received.some((entry) => entry.event.type === 'registration.deleted' && entry.event.data['deviceLibraryIdentifier'] === 'device-c'),
        10_000,
        'registration.deleted',
      );
      const serials = await fetch(`${pass.webServiceURL}/v1/devices/device-c/registrations/${PASS_TYPE_IDENTIFIER}`);
      expect(serials.status).toBe(204);
      // The device that polls sees the change once.
      const changed = await (await fetch(`${pass.webServiceURL}/v1/devices/device-a/registrations/${PASS_TYPE_IDENTIFIER}`)).json();
      expect(changed.serialNumbers).toEqual(['P-1']);

      const rows = await database.db.query<{ push_token: string; status: string; attempts: number; last_error: string | null }>(
        'select push_token, status, attempts, last_error from passmint_pushes order by push_token',
      );
      expect(rows).toEqual([
        { push_token: goodToken, status: 'sent', attempts: 1, last_error: null },
        { push_token: goneToken, status: 'gone', attempts: 1, last_error: 'Unregistered' },
        { push_token: busyToken, status: 'pending', attempts: 1, last_error: 'TooManyRequests' },
      ]);
      expect(receiver.received.every((entry) => entry.signatureValid)).toBe(true);
    });
  });
}
