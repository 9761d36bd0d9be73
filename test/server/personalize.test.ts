// Rewards enrollment in `passmint serve` (createServer), over real HTTP on
// 127.0.0.1 and a real database: a simulated device posts the signup, the
// signed token verifies with `openssl cms -verify` against the test PKI, the
// service records pass.personalized with the fields, and the pass Wallet
// fetches next is the personalized version (without the signup files).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readPass } from '../../src/pkpass/read.js';
import { createPassSigner } from '../../src/pkpass/signer.js';
import { png } from '../pkpass/helpers.js';
import { makePki, opensslVerify, PASS_TYPE_IDENTIFIER, type Pki } from '../pkpass/pki.js';
import { DeviceSimulator } from '../wallet/device-simulator.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

const template = {
  name: 'Rewards card',
  formatVersion: 1,
  passType: PASS_TYPE_IDENTIFIER,
  description: {
    backgroundColor: 'rgb(0, 70, 50)',
    nfc: { message: 'rewards-0001', encryptionPublicKey: 'MDkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDIgAC' },
    storeCard: {
      primaryFields: [{ key: 'points', label: 'Points', value: '${points}' }],
      secondaryFields: [{ key: 'member', label: 'Member', value: '${fullName}' }],
    },
  },
  placeholder: ['points', 'fullName'],
};
const personalization = {
  requiredPersonalizationFields: ['PKPassPersonalizationFieldName', 'PKPassPersonalizationFieldEmailAddress'],
  description: 'Join Example Rewards',
};
const personalizationToken = '7c1e0f5a-wallet-personalization-token';

for (const engine of ENGINES) {
  describe(`rewards enrollment in the service on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    let pki: Pki;

    beforeAll(async () => {
      pki = await makePki();
      const signer = await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem });
      database = await engine.open();
      service = await startService(database, { signer, issuer: { organizationName: 'Example Rewards' } });
    });
    afterAll(async () => {
      await service?.close();
      await database?.dispose();
    });

    test('signup → signed token (openssl cms -verify) → pass.personalized → the personalized pass is served', async () => {
      const { body: created } = await service.call('POST', '/v1/templates', template);
      const id = created.id as number;
      for (const [path, bytes] of [
        ['icon.png', png(29, 29)],
        ['personalization.json', new TextEncoder().encode(JSON.stringify(personalization))],
        ['personalizationLogo@2x.png', png(300, 80)],
      ] as const) {
        expect((await service.call('PUT', `/v1/templates/${id}/files/${path}`, bytes)).status).toBe(201);
      }
      const made = await service.call('POST', `/v1/templates/${id}/passes`, { values: { points: 0, fullName: 'New member' }, serialNumber: 'R-1' });
      expect(made.status).toBe(201);
      const passjson = (await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/R-1/passjson`)).body as {
        authenticationToken: string;
        webServiceURL: string;
      };
      const first = await readPass(new Uint8Array(await (await fetch(made.body.links.pkpass as string)).arrayBuffer()));
      expect([...first.files.keys()].sort()).toEqual(['icon.png', 'personalization.json', 'personalizationLogo@2x.png']);

      // The user adds the pass; Wallet shows the signup form; the device posts the signup.
      const device = new DeviceSimulator(`${passjson.webServiceURL}/`, 'device-r1', '0a1b2c3d4e5f60718293a4b5c6d7e8f9');
      const held = { passTypeIdentifier: PASS_TYPE_IDENTIFIER, serialNumber: 'R-1', authenticationToken: passjson.authenticationToken };
      expect(await device.addPass(held)).toBe(201);
      const info = { fullName: 'Ada Lovelace', givenName: 'Ada', familyName: 'Lovelace', emailAddress: 'ada@example.com' };
      const answer = await device.personalize(held, personalizationToken, info);
      expect(answer.status).toBe(200);
      expect(await opensslVerify(answer.body, new TextEncoder().encode(personalizationToken), pki.rootPath)).toEqual({ code: 0, stderr: '' });

      // Wallet asks for the personalized pass: the new version, the user's name on it, no signup files.
      expect(await device.fetchPass(PASS_TYPE_IDENTIFIER, 'R-1')).toBe(200);
      const personalized = await readPass(device.passes.get(`${PASS_TYPE_IDENTIFIER}/R-1`)!.bytes!);
      expect((personalized.pass['storeCard'] as { secondaryFields: { value: unknown }[] }).secondaryFields[0]?.value).toBe('Ada Lovelace');
      expect(personalized.pass['authenticationToken']).toBe(passjson.authenticationToken);
      expect([...personalized.files.keys()]).toEqual(['icon.png']);

      const resource = (await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/R-1`)).body as { version: number; values: Record<string, unknown> };
      expect(resource.version).toBe(2);
      expect(resource.values).toMatchObject({ points: 0, fullName: 'Ada Lovelace', emailAddress: 'ada@example.com', personalization: info });

      const events = (await service.call('GET', '/v1/events?limit=10')).body as { items: { type: string; data: unknown }[] };
      expect(events.items.find((event) => event.type === 'pass.personalized')?.data).toEqual({
        serialNumber: 'R-1',
        passTypeIdentifier: PASS_TYPE_IDENTIFIER,
        personalization: info,
      });
      expect(events.items.some((event) => event.type === 'pass.updated')).toBe(true);
    });
  });
}
