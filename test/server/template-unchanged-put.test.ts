// A template sent back unchanged makes no version: it would be listed as a change of the template's files.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

const template = (label: string) => ({
  name: 'Member card',
  formatVersion: 1,
  passType: 'pass.com.example.member',
  description: { description: 'Member card', generic: { primaryFields: [{ key: 'name', label, value: '${name}' }] } },
  placeholder: ['name'],
});

for (const engine of ENGINES) {
  describe(`PUT /v1/templates/{id} with the stored body on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;

    beforeAll(async () => {
      database = await engine.open();
      service = await startService(database);
    });
    afterAll(async () => {
      await service?.close();
      await database?.dispose();
    });

    test('the same body: 200, no version; a changed body: one version, its files unchanged', async () => {
      const created = await service.call('POST', '/v1/templates', template('Member'));
      expect(created.status).toBe(201);
      const id = created.body.id as number;
      const read = await service.call('GET', `/v1/templates/${id}`);
      const same = await service.call('PUT', `/v1/templates/${id}`, read.body);
      expect(same.status).toBe(200);
      expect(same.body).toMatchObject({ id, name: 'Member card' });
      const unchanged = await service.call('GET', `/v1/templates/${id}/versions`);
      expect(unchanged.body.version).toBe(1);
      expect(unchanged.body.versions.map((entry: { version: number }) => entry.version)).toEqual([1]);

      expect((await service.call('PUT', `/v1/templates/${id}`, { ...template('Name'), id })).status).toBe(200);
      const changed = await service.call('GET', `/v1/templates/${id}/versions`);
      expect(changed.body.version).toBe(2);
      expect(changed.body.versions[0]).toMatchObject({ version: 2, filesChanged: false });
    });
  });
}
