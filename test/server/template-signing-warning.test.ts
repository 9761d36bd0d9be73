// A template whose pass type the service cannot sign is stored, with a warning in the answer (never stored).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createPassSigner } from '../../src/pkpass/signer.js';
import { makePki, PASS_TYPE_IDENTIFIER } from '../pkpass/pki.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

const template = (passType: string) => ({
  name: 'Member card',
  formatVersion: 1,
  passType,
  description: { description: 'Member card', generic: { primaryFields: [{ key: 'name', label: 'Member', value: '${name}' }] } },
  placeholder: ['name'],
});

for (const engine of ENGINES) {
  describe(`a template's pass type and the signing identity on ${engine.name}`, () => {
    let database: TestDatabase;
    let signed: Service;
    let unsigned: Service;

    beforeAll(async () => {
      const pki = await makePki();
      database = await engine.open();
      signed = await startService(database, { signer: await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem }) });
      unsigned = await startService(database);
    });
    afterAll(async () => {
      await signed?.close();
      await unsigned?.close();
      await database?.dispose();
    });

    test('the pass type the certificate signs: no warnings', async () => {
      const created = await signed.call('POST', '/v1/templates', template(PASS_TYPE_IDENTIFIER));
      expect(created.status).toBe(201);
      expect(created.body).not.toHaveProperty('warnings');
    });

    test('another pass type: stored, answered with no-signing-identity at /passType, and the warning is not stored', async () => {
      const created = await signed.call('POST', '/v1/templates', template('pass.com.example.other'));
      expect(created.status).toBe(201);
      expect(created.body.warnings).toEqual([expect.objectContaining({ severity: 'warning', code: 'no-signing-identity', path: '/passType' })]);
      const id = created.body.id as number;
      // Sent back as read (warnings and all), it is stored without them.
      const replaced = await signed.call('PUT', `/v1/templates/${id}`, created.body);
      expect(replaced.status).toBe(200);
      expect((replaced.body.warnings as { code: string }[]).map((warning) => warning.code)).toEqual(['no-signing-identity']);
      const read = await signed.call('GET', `/v1/templates/${id}`);
      expect(read.status).toBe(200);
      expect(read.body).not.toHaveProperty('warnings');
    });

    test('no certificate at all: every template is answered with the warning', async () => {
      const created = await unsigned.call('POST', '/v1/templates', template(PASS_TYPE_IDENTIFIER));
      expect(created.status).toBe(201);
      expect((created.body.warnings as { message: string }[])[0]!.message).toContain('no signing certificate');
    });
  });
}
