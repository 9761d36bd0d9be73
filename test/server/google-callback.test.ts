// Google's save/delete callbacks, the holes of issue 28, on both engines: a
// signed callback whose class is not the object's class (or whose ids are
// not under this issuer) is refused and stores nothing, not even its nonce;
// a nonce longer than 256 characters is refused; and a nonce is kept at most
// 7 days whatever expiry the message claims (the year 9999).
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { putTemplateFile } from '../../src/server/db/templates.js';
import { readGoogleCredentials } from '../../src/google/credentials.js';
import { createCallbackSigner, startGoogleStandIn, type GoogleStandIn } from '../google/stand-in.js';
import { testServiceAccount } from '../google/keys.js';
import { png } from '../pkpass/helpers.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { eventually } from './receiver.js';

const ISSUER = '3388000000012345678';
const PASS_TYPE = 'pass.com.example.member';
const DAY_S = 86_400;

for (const engine of ENGINES) {
  describe(`Google callbacks on ${engine.name}`, () => {
    const account = testServiceAccount();
    const signer = createCallbackSigner();
    let database: TestDatabase;
    let standIn: GoogleStandIn;
    let service: Service;
    let objectId: string;
    let classId: string;
    let templateId: number;

    const post = (message: Record<string, unknown>): Promise<Response> =>
      fetch(`${service.url}/google/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: signer.sign({ issuerId: ISSUER, message, intermediateExpiration: Date.now() + 3_600_000 }),
      });
    const message = (nonce: string, changes: Record<string, unknown> = {}): Record<string, unknown> => ({
      classId,
      objectId,
      expTimeMillis: Date.now() + 60_000,
      eventType: 'save',
      nonce,
      ...changes,
    });
    const registrations = async (): Promise<number> =>
      (await database.db.query<{ n: number }>(`select count(*)::int as n from passmint_events where type like 'registration.%'`))[0]!.n;
    const nonceKept = async (nonce: string): Promise<number | undefined> =>
      (
        await database.db.query<{ s: number }>('select extract(epoch from expires_at - now())::float8 as s from passmint_google_nonces where nonce = $1', [
          nonce,
        ])
      )[0]?.s;

    beforeAll(async () => {
      [database, standIn] = await Promise.all([engine.open(), startGoogleStandIn({ publicKeyPem: account.publicKeyPem, clientEmail: account.clientEmail })]);
      service = await startService(database, {
        publicUrl: 'https://passes.example.com',
        google: {
          credentials: readGoogleCredentials(account.json),
          issuerId: ISSUER,
          apiUrl: standIn.apiUrl,
          tokenUrl: standIn.tokenUrl,
          callbackKeys: signer.rootKeys(),
        },
      });
      const { body: template } = await service.call('POST', '/v1/templates', {
        name: 'Member',
        formatVersion: 1,
        passType: PASS_TYPE,
        description: { generic: { primaryFields: [{ key: 'level', label: 'Level', value: '${level}' }] } },
        placeholder: ['level'],
      });
      templateId = template.id as number;
      expect((await service.call('PUT', `/v1/templates/${template.id}/files/icon.png`, png(29, 29))).status).toBe(201);
      expect((await service.call('POST', `/v1/templates/${template.id}/passes`, { values: { level: 'Gold' }, serialNumber: 'C-1' })).status).toBe(201);
      objectId = `${ISSUER}.pass_2ecom_2eexample_2emember.C-1`;
      classId = `${ISSUER}.pass_2ecom_2eexample_2emember.template-${template.id}`;
      await eventually(
        async () => (await database.db.query('select 1 from passmint_google_objects where object_id = $1 and class_id = $2', [objectId, classId])).length === 1,
        15_000,
        'the object issued',
      );
    });
    afterAll(async () => {
      await service?.close();
      await standIn?.close();
      await database?.dispose();
    });

    test("a class that is not the object's is 400 invalid-callback, and stores nothing (not even the nonce)", async () => {
      const before = await registrations();
      for (const other of [`${ISSUER}.pass_2ecom_2eexample_2emember.template-999`, `${ISSUER}.another`]) {
        const answer = await post(message('nonce-class-1', { classId: other }));
        expect(answer.status).toBe(400);
        expect(await answer.json()).toMatchObject({
          code: 'invalid-callback',
          detail: `The callback was refused: class ${JSON.stringify(other)} is not the object's class.`,
        });
      }
      // Ids of another issuer (signed for this one): refused before any lookup.
      for (const changes of [{ classId: '1111.pass_2ecom_2eexample_2emember.template-1' }, { objectId: '1111.pass_2ecom_2eexample_2emember.C-1' }]) {
        const answer = await post(message('nonce-class-1', changes));
        expect(answer.status).toBe(400);
        expect((await answer.json()).detail).toBe(`The callback was refused: its object and class ids are not under this issuer (${ISSUER}).`);
      }
      expect(await nonceKept('nonce-class-1')).toBeUndefined();
      expect(await registrations()).toBe(before);
      // The right class with the same nonce is taken: the refusals kept nothing.
      expect((await post(message('nonce-class-1'))).status).toBe(200);
      expect(await registrations()).toBe(before + 1);
    });

    test('a nonce over 256 characters is refused; one of 256 is taken', async () => {
      const before = await registrations();
      const long = await post(message('n'.repeat(257)));
      expect(long.status).toBe(400);
      expect(await long.json()).toMatchObject({ code: 'invalid-callback', detail: 'The callback was refused: its nonce is longer than 256 characters.' });
      const big = await post(message('n'.repeat(30_000)));
      expect(big.status).toBe(400);
      expect(await registrations()).toBe(before);
      expect((await database.db.query('select 1 from passmint_google_nonces where length(nonce) > 256')).length).toBe(0);
      expect((await post(message('m'.repeat(256)))).status).toBe(200);
      expect(await nonceKept('m'.repeat(256))).toBeGreaterThan(0);
      expect(await registrations()).toBe(before + 1);
    });

    test('a nonce is kept at most 7 days, whatever expiry the message claims', async () => {
      const year9999 = Date.UTC(9999, 11, 31);
      expect((await post(message('nonce-forever', { expTimeMillis: year9999 }))).status).toBe(200);
      const kept = (await nonceKept('nonce-forever'))!;
      expect(kept).toBeLessThanOrEqual(7 * DAY_S);
      expect(kept).toBeGreaterThan(7 * DAY_S - 120);
      // A message expiring in a minute keeps its nonce a minute and the hour of clock slack.
      expect((await post(message('nonce-soon'))).status).toBe(200);
      const soon = (await nonceKept('nonce-soon'))!;
      expect(soon).toBeGreaterThan(3600);
      expect(soon).toBeLessThanOrEqual(3660);
    });

    test("Google's image fetcher gets 422 image-too-large for a PNG dimension bomb stored before the upload check", async () => {
      const ihdr = Buffer.alloc(13);
      ihdr.writeUInt32BE(65535, 0);
      ihdr.writeUInt32BE(65535, 4);
      ihdr[8] = 8;
      ihdr[9] = 6;
      const chunk = (type: string, data: Uint8Array): Buffer => {
        const head = Buffer.alloc(8);
        head.writeUInt32BE(data.length, 0);
        head.write(type, 4, 'latin1');
        return Buffer.concat([head, data, Buffer.alloc(4)]);
      };
      const bomb = new Uint8Array(
        Buffer.concat([
          Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
          chunk('IHDR', ihdr),
          chunk('IDAT', deflateSync(Buffer.alloc(4096))),
          chunk('IEND', new Uint8Array()),
        ]),
      );
      expect(await putTemplateFile(database.db, templateId, 'logo.png', bomb)).toBe('stored');
      const hash = createHash('sha256').update(bomb).digest('hex');
      const answer = await fetch(`${service.url}/google/images/${templateId}/${hash}/logo.png`);
      expect(answer.status).toBe(422);
      expect(await answer.json()).toMatchObject({ code: 'image-too-large', issues: [{ code: 'image-too-large', path: '/logo.png' }] });
    });
  });
}
