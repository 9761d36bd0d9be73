// One template change, one class call: a template whose file changes owes
// Google its class and every object made from it; the class and object jobs
// run side by side, and the class goes to Google once per template version,
// not once per object (each would be a call against the issuer's quota).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readGoogleCredentials } from '../../src/google/credentials.js';
import { createCallbackSigner, startGoogleStandIn, type GoogleStandIn } from '../google/stand-in.js';
import { testServiceAccount } from '../google/keys.js';
import { png } from '../pkpass/helpers.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { eventually } from './receiver.js';

const ISSUER = '3388000000012345678';
const PASS_TYPE = 'pass.com.example.member';
const SERIALS = ['C-1', 'C-2', 'C-3', 'C-4'];

for (const engine of ENGINES) {
  describe(`the Google class once per template version on ${engine.name}`, () => {
    const account = testServiceAccount();
    let database: TestDatabase;
    let standIn: GoogleStandIn;
    let service: Service;
    let templateId: number;

    const classCalls = (): string[] =>
      standIn.requests.filter((request) => request.path.includes('/genericClass')).map((request) => `${request.method} ${request.path.split('/').pop()}`);
    const objectCalls = (): number => standIn.requests.filter((request) => request.path.includes('/genericObject')).length;
    const jobsDone = async (): Promise<boolean> =>
      (await database.db.query<{ n: number }>('select count(*)::int as n from passmint_google_jobs where wanted > done'))[0]!.n === 0;

    beforeAll(async () => {
      [database, standIn] = await Promise.all([engine.open(), startGoogleStandIn({ publicKeyPem: account.publicKeyPem, clientEmail: account.clientEmail })]);
      service = await startService(database, {
        publicUrl: 'https://passes.example.com',
        issuer: { teamIdentifier: 'A93A5CM278', organizationName: 'Example' },
        google: {
          credentials: readGoogleCredentials(account.json),
          issuerId: ISSUER,
          apiUrl: standIn.apiUrl,
          tokenUrl: standIn.tokenUrl,
          callbackKeys: createCallbackSigner().rootKeys(),
        },
      });
      const { body: template } = await service.call('POST', '/v1/templates', {
        name: 'Member',
        formatVersion: 1,
        passType: PASS_TYPE,
        description: { generic: { primaryFields: [{ key: 'name', label: 'Name', value: '${name}' }] } },
        placeholder: ['name'],
      });
      templateId = template.id;
      expect((await service.call('PUT', `/v1/templates/${templateId}/files/icon.png`, png(29, 29))).status).toBe(201);
      for (const serial of SERIALS) {
        expect((await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { name: serial }, serialNumber: serial })).status).toBe(201);
      }
      await eventually(async () => objectCalls() >= SERIALS.length && (await jobsDone()), 10_000, 'the objects at the stand-in');
    });

    afterAll(async () => {
      await service?.close();
      await standIn?.close();
      await database?.dispose();
    });

    test('a file uploaded to a template with 4 passes patches the class once and each object once', async () => {
      const classesBefore = classCalls().length;
      const objectsBefore = objectCalls();
      expect((await service.call('PUT', `/v1/templates/${templateId}/files/logo.png`, png(160, 50))).status).toBe(201);
      await eventually(async () => objectCalls() - objectsBefore >= SERIALS.length && (await jobsDone()), 10_000, 'the objects patched');
      expect(classCalls().slice(classesBefore)).toEqual([`PATCH ${ISSUER}.pass_2ecom_2eexample_2emember.template-${templateId}`]);
      expect(objectCalls() - objectsBefore).toBe(SERIALS.length);
    });

    test('a template change alone sends the class once, and nothing when it is already sent', async () => {
      const classesBefore = classCalls().length;
      const { body: template } = await service.call('GET', `/v1/templates/${templateId}`);
      expect((await service.call('PUT', `/v1/templates/${templateId}`, { ...template, name: 'Member card' })).status).toBe(200);
      await eventually(async () => classCalls().length > classesBefore && (await jobsDone()), 10_000, 'the class sent again');
      expect(classCalls().length - classesBefore).toBe(1);
      // A pass change after it: its object only.
      const after = classCalls().length;
      expect((await service.call('PUT', `/v1/passes/${PASS_TYPE}/C-1/values`, { name: 'Ada' })).status).toBe(200);
      await eventually(
        async () =>
          JSON.stringify(standIn.store.get('genericObject')?.get(`${ISSUER}.pass_2ecom_2eexample_2emember.C-1`)).includes('"Ada"') && (await jobsDone()),
        10_000,
        'the object patched',
      );
      expect(classCalls().length).toBe(after);
    });
  });
}
