// Idempotency-Key on every POST with an API key (Stripe's rules): the first
// answer is replayed with Idempotent-Replayed: true and makes nothing twice;
// the same key with another request is 422; a key still running is 409;
// keys are scoped per API key; refusals are not kept.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { claimIdempotencyKey } from '../../src/server/db/idempotency.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

const TEMPLATE = {
  name: 'Member',
  formatVersion: 1,
  passType: 'pass.com.example.idempotent',
  description: { generic: { primaryFields: [{ key: 'name', value: '${name}' }] } },
  placeholder: ['name'],
};

for (const engine of ENGINES) {
  describe(`Idempotency-Key on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    let templateId: number;
    let keyId: string;

    const passCount = async (): Promise<number> => (await service.call('GET', `/v1/passes?templateId=${templateId}&limit=100`)).body.items.length;

    beforeAll(async () => {
      database = await engine.open();
      service = await startService(database);
      templateId = (await service.call('POST', '/v1/templates', TEMPLATE)).body.id;
      keyId = (await service.call('GET', '/v1/keys')).body.items[0].id;
    });
    afterAll(async () => {
      await service?.close();
      await database?.dispose();
    });

    test('a retried create is replayed, not made twice', async () => {
      const headers = { 'idempotency-key': 'create-ada-1' };
      const first = await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { name: 'Ada' } }, headers);
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const again = await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { name: 'Ada' } }, headers);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
      expect(again.body).toEqual(first.body);
      expect(await passCount()).toBe(1);
    });

    test('the same key with another body is 422 idempotency-key-reused, and nothing is made', async () => {
      const headers = { 'idempotency-key': 'create-grace' };
      expect((await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { name: 'Grace' } }, headers)).status).toBe(201);
      const before = await passCount();
      const other = await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { name: 'Grace H.' } }, headers);
      expect([other.status, other.body.code]).toEqual([422, 'idempotency-key-reused']);
      // Another path with the same key is another request too.
      const elsewhere = await service.call('POST', '/v1/templates', TEMPLATE, headers);
      expect([elsewhere.status, elsewhere.body.code]).toEqual([422, 'idempotency-key-reused']);
      expect(await passCount()).toBe(before);
    });

    test('keys are scoped per API key', async () => {
      const otherKey = await service.server.addApiKey();
      const headers = { 'idempotency-key': 'shared-name' };
      const mine = await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { name: 'Mine' } }, headers);
      const before = await passCount();
      const response = await fetch(`${service.url}/v1/templates/${templateId}/passes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${otherKey}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ values: { name: 'Theirs' } }),
      });
      expect(response.status).toBe(201);
      expect(response.headers.get('idempotent-replayed')).toBeNull();
      const theirs = (await response.json()) as { serialNumber: string };
      expect(theirs.serialNumber).not.toBe(mine.body.serialNumber);
      expect(await passCount()).toBe(before + 1);
    });

    test('a key still running is 409 idempotency-key-in-use; a claim whose lease ran out is taken over', async () => {
      await claimIdempotencyKey(database.db, keyId, 'busy', crypto.randomUUID(), 60_000);
      const busy = await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { name: 'Busy' } }, { 'idempotency-key': 'busy' });
      expect([busy.status, busy.body.code]).toEqual([409, 'idempotency-key-in-use']);
      // A process killed mid-request: its lease is over.
      await claimIdempotencyKey(database.db, keyId, 'orphan', crypto.randomUUID(), -1000);
      const taken = await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { name: 'Orphan' } }, { 'idempotency-key': 'orphan' });
      expect(taken.status).toBe(201);
    });

    test('a refusal is not kept: the retry with the body put right runs', async () => {
      const headers = { 'idempotency-key': 'fix-me' };
      const refused = await service.call('POST', `/v1/templates/${templateId}/passes`, { values: 'not an object' }, headers);
      expect([refused.status, refused.body.code]).toEqual([422, 'invalid-values']);
      const fixed = await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { name: 'Fixed' } }, headers);
      expect(fixed.status).toBe(201);
      expect(fixed.headers.get('idempotent-replayed')).toBeNull();
    });

    test('every POST: a webhook registration is replayed with its Location, an action without a body too', async () => {
      const headers = { 'idempotency-key': 'hook-1' };
      const body = { url: 'http://127.0.0.1:9/hook', events: ['pass.updated'] };
      const first = await service.call('POST', '/v1/webhooks', body, headers);
      expect(first.status).toBe(201);
      const again = await service.call('POST', '/v1/webhooks', body, headers);
      expect([again.status, again.headers.get('idempotent-replayed'), again.headers.get('location')]).toEqual([201, 'true', first.headers.get('location')]);
      expect((await service.call('GET', '/v1/webhooks')).body.items.length).toBe(1);
      const disable = { 'idempotency-key': 'disable-1' };
      const disabled = await service.call('POST', `/v1/webhooks/${first.body.id}/disable`, undefined, disable);
      const replayed = await service.call('POST', `/v1/webhooks/${first.body.id}/disable`, undefined, disable);
      expect([replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
      expect(replayed.body).toEqual(disabled.body);
    });

    test('a key that is too long or not printable ASCII is 400 invalid-idempotency-key', async () => {
      for (const key of ['k'.repeat(256), 'caf\u00e9']) {
        const response = await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { name: 'X' } }, { 'idempotency-key': key });
        expect([response.status, response.body.code]).toEqual([400, 'invalid-idempotency-key']);
      }
      const fine = await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { name: 'Long key' } }, { 'idempotency-key': 'k'.repeat(255) });
      expect(fine.status).toBe(201);
    });

    test('GET ignores the header', async () => {
      const listed = await service.call('GET', '/v1/templates', undefined, { 'idempotency-key': 'whatever' });
      expect([listed.status, listed.headers.get('idempotent-replayed')]).toEqual([200, null]);
    });
  });
}
