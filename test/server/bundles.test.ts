// Bundles over real HTTP on both engines: POST /v1/bundles with the passes
// of one order gives one share page that draws them all, a .pkpasses file of
// their signed passes, and one Google save link that carries every object;
// bad input is a located 422 and stores nothing.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readGoogleCredentials } from '../../src/google/credentials.js';
import { readPass } from '../../src/pkpass/read.js';
import { createPassSigner } from '../../src/pkpass/signer.js';
import { testServiceAccount } from '../google/keys.js';
import { startGoogleStandIn, type GoogleStandIn } from '../google/stand-in.js';
import { png, unzipEntry, unzipNames } from '../pkpass/helpers.js';
import { makePki, PASS_TYPE_IDENTIFIER } from '../pkpass/pki.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

const ISSUER = '3388000000012345678';

for (const engine of ENGINES) {
  describe(`bundles on ${engine.name}`, () => {
    const account = testServiceAccount();
    let database: TestDatabase;
    let google: GoogleStandIn;
    let service: Service;

    beforeAll(async () => {
      const pki = await makePki();
      const signer = await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem });
      [database, google] = await Promise.all([engine.open(), startGoogleStandIn({ publicKeyPem: account.publicKeyPem, clientEmail: account.clientEmail })]);
      service = await startService(database, {
        signer,
        issuer: { organizationName: 'Example Hall' },
        google: { credentials: readGoogleCredentials(account.json), issuerId: ISSUER, apiUrl: google.apiUrl, tokenUrl: google.tokenUrl },
      });
      const { body: template } = await service.call('POST', '/v1/templates', {
        name: 'Seat',
        formatVersion: 1,
        passType: PASS_TYPE_IDENTIFIER,
        description: { eventTicket: { primaryFields: [{ key: 'seat', label: 'Seat', value: '${seat}' }] } },
        placeholder: ['seat'],
      });
      expect((await service.call('PUT', `/v1/templates/${template.id}/files/icon.png`, png(29, 29))).status).toBe(201);
      for (const seat of ['A1', 'A2', 'A3']) {
        expect((await service.call('POST', `/v1/templates/${template.id}/passes`, { values: { seat }, serialNumber: `T-${seat}` })).status).toBe(201);
      }
    });

    afterAll(async () => {
      await service?.close();
      await google?.close();
      await database?.dispose();
    });

    test('one page, one .pkpasses, one Google save link for the passes of an order', async () => {
      const passes = ['T-A1', 'T-A3'].map((serialNumber) => ({ passTypeIdentifier: PASS_TYPE_IDENTIFIER, serialNumber }));
      const made = await service.call('POST', '/v1/bundles', { passes });
      expect(made.status).toBe(201);
      expect(made.body.passes).toEqual(passes);
      expect(made.body.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(made.body.links).toEqual({
        share: `${service.url}/p/${made.body.id}`,
        pkpasses: `${service.url}/p/${made.body.id}/passes.pkpasses`,
        google: `${service.url}/p/${made.body.id}/google`,
      });
      expect(made.headers.get('location')).toBe(made.body.links.share);

      const html = await (await fetch(made.body.links.share)).text();
      expect(html.match(/<section class="card/g)?.length).toBe(2);
      expect(html).toContain('<dt>Seat</dt><dd>A1</dd>');
      expect(html).toContain('<dt>Seat</dt><dd>A3</dd>');
      expect(html).not.toContain('<dd>A2</dd>');
      expect(html).toContain(`href="/p/${made.body.id}/passes.pkpasses">Add all to Apple Wallet</a>`);

      const file = await fetch(made.body.links.pkpasses);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('application/vnd.apple.pkpasses');
      const bytes = new Uint8Array(await file.arrayBuffer());
      const names = unzipNames(bytes);
      expect(names).toEqual(['1-T-A1.pkpass', '2-T-A3.pkpass']);
      const serials = await Promise.all(names.map(async (name) => (await readPass(unzipEntry(bytes, name))).pass['serialNumber']));
      expect(serials).toEqual(['T-A1', 'T-A3']);

      const save = await fetch(made.body.links.google, { redirect: 'manual' });
      expect(save.status).toBe(303);
      const jwt = save.headers.get('location')!.replace('https://pay.google.com/gp/v/save/', '');
      const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'));
      const objects = Object.values(claims.payload as Record<string, { id: string }[]>)
        .flat()
        .map((item) => item.id)
        .filter((id) => !id.includes('.template-'));
      expect(objects.sort()).toEqual([`${ISSUER}.pass_2ecom_2eexample_2etest.T-A1`, `${ISSUER}.pass_2ecom_2eexample_2etest.T-A3`]);
    });

    test('1 to 10 distinct passes that exist; otherwise a located 422 and nothing stored', async () => {
      const key = (serialNumber: string): { passTypeIdentifier: string; serialNumber: string } => ({ passTypeIdentifier: PASS_TYPE_IDENTIFIER, serialNumber });
      const before = (await database.db.query<{ n: number }>('select count(*)::int as n from passmint_bundles'))[0]!.n;
      for (const [body, where] of [
        [{ passes: [] }, '/passes'],
        [{ passes: Array.from({ length: 11 }, (_, i) => key(`T-${i}`)) }, '/passes'],
        [{ passes: [key('T-A1'), key('T-A1')] }, '/passes/1'],
        [{ passes: [key('T-A1'), key('T-none')] }, '/passes/1'],
        [{ passes: [{ serialNumber: 'T-A1' }] }, '/passes/0/passTypeIdentifier'],
        [{ passes: [key('T-A1')], extra: 1 }, '/extra'],
      ] as const) {
        const answer = await service.call('POST', '/v1/bundles', body);
        expect([answer.status, answer.body.code, answer.body.detail.startsWith(where)]).toEqual([422, 'invalid-body', true]);
      }
      expect((await database.db.query<{ n: number }>('select count(*)::int as n from passmint_bundles'))[0]!.n).toBe(before);
      expect((await fetch(`${service.url}/p/AAAAAAAAAAAAAAAAAAAAAA/passes.pkpasses`)).status).toBe(404);
    });
  });
}
