// Attacks with identifiers that survive the database but not a URL: every
// client (fetch, browsers, Wallet) resolves a path segment `.` or `..` (also
// written `%2E`, `%2e%2E`) before sending, so a pass with such a serial
// number could never be fetched, updated or deleted by its links.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PASS_TYPE_IDENTIFIER } from '../pkpass/pki.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

const template = {
  name: 'Member card',
  formatVersion: 1,
  passType: PASS_TYPE_IDENTIFIER,
  description: { backgroundColor: 'rgb(20, 40, 60)', generic: { primaryFields: [{ key: 'name', label: 'Member', value: '${name}' }] } },
  placeholder: ['name'],
};

describe('attacks with identifiers a URL cannot carry', () => {
  let database: TestDatabase;
  let service: Service;
  let templateId: number;

  beforeAll(async () => {
    database = await ENGINES[0]!.open();
    service = await startService(database);
    templateId = (await service.call('POST', '/v1/templates', template)).body.id as number;
  });
  afterAll(async () => {
    await service?.close();
    await database?.dispose();
  });

  test('a serial number "." or ".." is refused with a 422 located at /serialNumber; nothing is stored', async () => {
    for (const serialNumber of ['.', '..']) {
      const answer = await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { name: 'Ada' }, serialNumber });
      expect(answer.status).toBe(422);
      expect(answer.body.issues).toEqual([expect.objectContaining({ severity: 'error', code: 'unsafe-serial-number', path: '/serialNumber' })]);
    }
    expect((await service.call('GET', '/v1/passes')).body.items).toEqual([]);
    // Dots inside a serial number are whole characters of it, kept and reachable.
    const kept = await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { name: 'Ada' }, serialNumber: '...' });
    expect(kept.status).toBe(201);
    expect((await fetch(kept.body.links.passjson as string, { headers: { authorization: `Bearer ${service.key}` } })).status).toBe(200);
  });

  test('a template whose passType is "." or ".." is refused with a 422 located at /passType', async () => {
    for (const passType of ['.', '..']) {
      const answer = await service.call('POST', '/v1/templates', { ...template, passType });
      expect(answer.status).toBe(422);
      expect(answer.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/passType' })]));
    }
  });
});
