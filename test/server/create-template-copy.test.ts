// Creates render from the template as the process last read it; the insert checks its version,
// so a template changed since (here, or by another process) is read again, never used old.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readPass } from '../../src/pkpass/read.js';
import { createPassSigner } from '../../src/pkpass/signer.js';
import { png } from '../pkpass/helpers.js';
import { makePki, PASS_TYPE_IDENTIFIER } from '../pkpass/pki.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

const template = (logoText: string, extra: Record<string, unknown> = {}) => ({
  name: 'Copy card',
  formatVersion: 1,
  passType: PASS_TYPE_IDENTIFIER,
  description: { logoText, backgroundColor: 'rgb(20, 40, 60)', generic: { primaryFields: [{ key: 'name', label: 'Member', value: '${name}' }] }, ...extra },
  placeholder: ['name'],
});

for (const engine of ENGINES) {
  describe(`creates and the template copy in memory on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;

    beforeAll(async () => {
      const pki = await makePki();
      const signer = await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem });
      database = await engine.open();
      service = await startService(database, { signer });
    });
    afterAll(async () => {
      await service?.close();
      await database?.dispose();
    });

    const logoTextOf = async (serialNumber: string) =>
      (await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/${serialNumber}/passjson`)).body.logoText as string;

    test('a template changed through the API or in the database is used by the next create', async () => {
      const id = (await service.call('POST', '/v1/templates', template('One'))).body.id as number;
      expect((await service.call('POST', `/v1/templates/${id}/passes`, { serialNumber: 'C-1', values: { name: 'Ada' } })).status).toBe(201);
      expect(await logoTextOf('C-1')).toBe('One');
      expect((await service.call('PUT', `/v1/templates/${id}`, template('Two'))).status).toBe(200);
      expect((await service.call('POST', `/v1/templates/${id}/passes`, { serialNumber: 'C-2', values: { name: 'Ada' } })).status).toBe(201);
      expect(await logoTextOf('C-2')).toBe('Two');
      // As another process would change it: the row only.
      await database.db.query(
        `update passmint_templates set template = jsonb_set(template::jsonb, '{description,logoText}', '"Three"')::json, version = version + 1 where id = $1`,
        [id],
      );
      expect((await service.call('POST', `/v1/templates/${id}/passes`, { serialNumber: 'C-3', values: { name: 'Ada' } })).status).toBe(201);
      expect(await logoTextOf('C-3')).toBe('Three');
      const events = await database.db.query<{ n: number }>(`select count(*)::int as n from passmint_events where type = 'pass.created'`);
      expect(events[0]!.n).toBe(3);
    });

    test('values the old copy refuses are checked against the stored template', async () => {
      const id = (await service.call('POST', '/v1/templates', { ...template('${club}'), placeholder: ['name', 'club'] })).body.id as number;
      const refused = await service.call('POST', `/v1/templates/${id}/passes`, { values: { name: 'Ada' } });
      expect([refused.status, refused.body.code]).toEqual([422, 'invalid-values']);
      await database.db.query(
        `update passmint_templates set template = jsonb_set(jsonb_set(template::jsonb, '{description,logoText}', '"Fixed"'), '{placeholder}', '["name"]')::json, version = version + 1 where id = $1`,
        [id],
      );
      const made = await service.call('POST', `/v1/templates/${id}/passes`, { serialNumber: 'C-4', values: { name: 'Ada' } });
      expect(made.status).toBe(201);
      expect(await logoTextOf('C-4')).toBe('Fixed');
    });

    test('a serial number taken is 409 pass-exists, and nothing is added', async () => {
      const id = (await service.call('POST', '/v1/templates', template('Four'))).body.id as number;
      expect((await service.call('POST', `/v1/templates/${id}/passes`, { serialNumber: 'C-5', values: { name: 'Ada' } })).status).toBe(201);
      const again = await service.call('POST', `/v1/templates/${id}/passes`, { serialNumber: 'C-5', values: { name: 'Bob' } });
      expect([again.status, again.body.code]).toEqual([409, 'pass-exists']);
    });

    test('a download packs the files of the template version its pass names, not an older copy held in memory', async () => {
      const id = (await service.call('POST', '/v1/templates', template('Files'))).body.id as number;
      expect((await service.call('PUT', `/v1/templates/${id}/files/icon.png`, png(29, 29, 0x10), { 'content-type': 'image/png' })).status).toBe(201);
      expect((await service.call('POST', `/v1/templates/${id}/passes`, { serialNumber: 'C-6', values: { name: 'Ada' } })).status).toBe(201);
      const download = async () => readPass((await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/C-6/pkpass`)).bytes);
      expect((await download()).files.has('logo.png')).toBe(false);
      // As another process would add a file: the row and the template's version only.
      await database.db.query(`insert into passmint_template_files (template_id, path, bytes) values ($1, 'logo.png', $2)`, [id, png(160, 50, 0x20)]);
      await database.db.query('update passmint_templates set version = version + 1 where id = $1', [id]);
      expect((await download()).files.has('logo.png')).toBe(true);
    });
  });
}
